// The node location store of travel411's extract reader (COSMium.cpp includes it; one translation unit).
// Chosen per read from what the first pass saw of the ways' node references: in memory for a small file, a dense
// file of 8 bytes per id when the ids the ways use are dense (the planet, a region cut with complete ways), a
// sparse file of 16 bytes per node otherwise (a country: a few hundred million nodes with ids up to 13 billion).
// The same choice osm2pgsql leaves to its user (--flat-nodes for the planet, its RAM cache for an extract).

#ifndef COSMIUM_NODE_LOCATION_STORE_HPP
#define COSMIUM_NODE_LOCATION_STORE_HPP

#include "COSMium.h"

#include <osmium/index/map/sparse_file_array.hpp>
#include <osmium/index/map/sparse_mem_array.hpp>
#include <osmium/osm/location.hpp>
#include <osmium/osm/node.hpp>
#include <osmium/osm/way.hpp>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <limits>
#include <memory>
#include <string>
#include <sys/mman.h>
#include <system_error>
#include <unistd.h>
#include <vector>

namespace cosmium {

    struct temporary_file_error : std::system_error {
        using std::system_error::system_error;
    };

    /// A file for a node location index, unlinked as soon as it is created: it is gone however the read ends
    /// (success, error, early stop, an interrupt, even a crash), and closing the descriptor frees its blocks.
    /// Either a new file in a directory (mkstemp), or the path the user gave (`import --nodes-file`), which must
    /// not exist yet: an existing file is never truncated.
    class TemporaryIndexFile {
        int m_fd = -1;

    public:
        /// `what`: a word for the file's name (`travel411-osm-<what>-XXXXXX`), seen only while it is being created.
        static TemporaryIndexFile in_directory(const std::string& directory, const char* what = "locations") {
            const std::string folder = directory.empty() ? std::string{"/tmp"} : directory;
            std::string pattern = folder + "/travel411-osm-" + what + "-XXXXXX";
            std::vector<char> name(pattern.begin(), pattern.end());
            name.push_back('\0');
            const int fd = ::mkstemp(name.data());
            if (fd < 0) {
                const std::string file = std::strcmp(what, "locations") == 0 ? "the node location index" : "the relations' temporary files";
                throw temporary_file_error{errno, std::system_category(), "cannot create " + file + " in " + folder};
            }
            ::unlink(name.data());
            return TemporaryIndexFile{fd};
        }

        static TemporaryIndexFile at_path(const std::string& path) {
            const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
            if (fd < 0) {
                const int error = errno;
                throw temporary_file_error{error, std::system_category(),
                                           "cannot create the node location file " + path +
                                               (error == EEXIST ? " (it exists: give the path of a new file)" : "")};
            }
            ::unlink(path.c_str());
            return TemporaryIndexFile{fd};
        }

        explicit TemporaryIndexFile(int fd) noexcept : m_fd(fd) {}
        TemporaryIndexFile(TemporaryIndexFile&& other) noexcept : m_fd(other.m_fd) { other.m_fd = -1; }
        TemporaryIndexFile(const TemporaryIndexFile&) = delete;
        TemporaryIndexFile& operator=(const TemporaryIndexFile&) = delete;
        TemporaryIndexFile& operator=(TemporaryIndexFile&&) = delete;
        ~TemporaryIndexFile() {
            if (m_fd >= 0) {
                ::close(m_fd);
            }
        }
        int fd() const noexcept { return m_fd; }
    };

    /// What the first pass saw of the ways' node references: the largest positive id and how many there are.
    /// Only nodes a way uses need a stored location (a tagged node is delivered from its own location).
    struct WayNodeReferences {
        uint64_t largest_positive_id = 0;
        uint64_t count = 0;

        void add(const osmium::Way& way) noexcept {
            for (const auto& node_ref : way.nodes()) {
                if (node_ref.ref() > 0) {
                    largest_positive_id = std::max(largest_positive_id, static_cast<uint64_t>(node_ref.ref()));
                }
            }
            count += way.nodes().size();
        }

        /// A dense file (8 bytes for every id up to the largest) is chosen when it is no larger than the sparse one
        /// would be (16 bytes a node) if every reference were a node of its own. The planet (13 billion ids, 10
        /// billion nodes): dense, 106 GB against 160. A country (600 million nodes under the same ids): sparse,
        /// 10 GB against 106.
        bool dense_is_smaller() const noexcept {
            return largest_positive_id / 2 < count;
        }
    };

    /// Locations at their id's offset in a file: x with its sign bit flipped, so that a never-written slot (zero)
    /// reads as x = INT32_MIN, outside the valid range, and so as no location. The file's blocks are allocated
    /// before it is mapped: a disk that fills up fails here with a message, not later with SIGBUS on a write.
    class DenseLocationFile {
        struct Slot {
            uint32_t flipped_x;
            int32_t y;
        };
        static constexpr uint32_t sign_bit = 0x80000000U;

        TemporaryIndexFile m_file;
        uint64_t m_count;
        size_t m_bytes;
        Slot* m_slots = nullptr;

    public:
        DenseLocationFile(TemporaryIndexFile file, uint64_t count) :
            m_file(std::move(file)),
            m_count(count),
            m_bytes(static_cast<size_t>(count) * sizeof(Slot)) {
            if (m_bytes == 0) {
                return;
            }
            const int allocated = ::posix_fallocate(m_file.fd(), 0, static_cast<off_t>(m_bytes));
            if (allocated != 0) {
                throw temporary_file_error{allocated, std::system_category(),
                                           "cannot make the node location file " + std::to_string(m_bytes >> 20) + " MB"};
            }
            void* mapped = ::mmap(nullptr, m_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, m_file.fd(), 0);
            if (mapped == MAP_FAILED) {
                throw temporary_file_error{errno, std::system_category(), "cannot map the node location file"};
            }
            m_slots = static_cast<Slot*>(mapped);
        }
        DenseLocationFile(const DenseLocationFile&) = delete;
        DenseLocationFile& operator=(const DenseLocationFile&) = delete;
        ~DenseLocationFile() {
            if (m_slots != nullptr) {
                ::munmap(m_slots, m_bytes);
            }
        }

        void set(uint64_t id, osmium::Location location) noexcept {
            if (id < m_count) {
                m_slots[id] = Slot{static_cast<uint32_t>(location.x()) ^ sign_bit, location.y()};
            }
        }

        osmium::Location get(uint64_t id) const noexcept {
            if (id >= m_count || m_slots[id].flipped_x == 0) {
                return osmium::Location{};
            }
            return osmium::Location{static_cast<int32_t>(m_slots[id].flipped_x ^ sign_bit), m_slots[id].y};
        }

        void* mapping() const noexcept { return m_slots; }
        size_t mapped_bytes() const noexcept { return m_bytes; }
    };

    /// Keeps the pages of the file-backed stores that this process has mapped under a budget, so that the node
    /// store is on disk, not in the process: every so many operations, once the process's resident file pages
    /// have grown by more than the budget, the mappings' pages are dropped (MADV_DONTNEED; for a shared file
    /// mapping the data stays in the file and the page cache, and comes back on the next touch as a minor fault).
    class ResidentPagesBudget {
        static constexpr uint64_t check_every = 1U << 20U;
        uint64_t m_budget_pages;
        uint64_t m_operations = 0;
        uint64_t m_next_check = check_every;
        uint64_t m_baseline_pages;

        static uint64_t resident_file_pages() noexcept {
            std::FILE* statm = std::fopen("/proc/self/statm", "r");
            if (statm == nullptr) {
                return 0;
            }
            unsigned long long size = 0;
            unsigned long long resident = 0;
            unsigned long long shared = 0;
            const int fields = std::fscanf(statm, "%llu %llu %llu", &size, &resident, &shared);
            std::fclose(statm);
            return fields == 3 ? shared : 0;
        }

    public:
        explicit ResidentPagesBudget(uint64_t budget_bytes) :
            m_budget_pages(budget_bytes / static_cast<uint64_t>(::sysconf(_SC_PAGESIZE))),
            m_baseline_pages(resident_file_pages()) {
        }

        /// Counts `operations` (locations stored or looked up); true when the mappings should be dropped now.
        bool exceeded(uint64_t operations) noexcept {
            m_operations += operations;
            if (m_operations < m_next_check) {
                return false;
            }
            m_next_check = m_operations + check_every;
            return resident_file_pages() > m_baseline_pages + m_budget_pages;
        }
    };

    using LocationIndex = osmium::index::map::Map<osmium::unsigned_object_id_type, osmium::Location>;
    using LocationFileIndex = osmium::index::map::SparseFileArray<osmium::unsigned_object_id_type, osmium::Location>;
    using LocationMemoryIndex = osmium::index::map::SparseMemArray<osmium::unsigned_object_id_type, osmium::Location>;

    /// Node locations for ways, as osmium's NodeLocationsForWays keeps them. Positive ids go to the store chosen
    /// for the file (see the top of this file); negative ids, which only files not yet uploaded from an editor
    /// have, to a sparse index made when the first comes. A small file's stay in memory: a file index starts by
    /// writing 16 MB of its file, which took 60-120 ms of a 300-byte file's read on tmpfs.
    class NodeLocations {
        std::string m_directory;
        std::string m_nodes_file;
        cosm_node_store m_store;
        WayNodeReferences m_references;
        std::unique_ptr<DenseLocationFile> m_dense;
        std::unique_ptr<TemporaryIndexFile> m_files[2];
        std::unique_ptr<LocationIndex> m_indexes[2];
        LocationFileIndex* m_sparse_files[2] = {nullptr, nullptr};
        ResidentPagesBudget m_budget;
        osmium::unsigned_object_id_type m_last_id = 0;
        bool m_must_sort = false;

        TemporaryIndexFile new_file(bool negative) const {
            return !negative && !m_nodes_file.empty() ? TemporaryIndexFile::at_path(m_nodes_file)
                                                      : TemporaryIndexFile::in_directory(m_directory);
        }

        LocationIndex& index(bool negative) {
            const int slot = negative ? 1 : 0;
            auto& index = m_indexes[slot];
            if (!index && m_store == COSM_NODE_STORE_MEMORY) {
                index = std::make_unique<LocationMemoryIndex>();
            } else if (!index) {
                m_files[slot] = std::make_unique<TemporaryIndexFile>(new_file(negative));
                auto file_index = std::make_unique<LocationFileIndex>(m_files[slot]->fd());
                m_sparse_files[slot] = file_index.get();
                index = std::move(file_index);
            }
            return *index;
        }

        osmium::Location get(osmium::object_id_type id) const {
            if (id > 0 && m_dense) {
                return m_dense->get(static_cast<uint64_t>(id));
            }
            const auto& index = m_indexes[id < 0 ? 1 : 0];
            if (!index) {
                return osmium::Location{};
            }
            return index->get_noexcept(static_cast<osmium::unsigned_object_id_type>(id < 0 ? -id : id));
        }

        void drop_mapped_pages_over_budget(uint64_t operations) {
            if (!m_budget.exceeded(operations)) {
                return;
            }
            if (m_dense) {
                ::madvise(m_dense->mapping(), m_dense->mapped_bytes(), MADV_DONTNEED);
            }
            for (auto* sparse : m_sparse_files) {
                if (sparse != nullptr && sparse->size() > 0) {
                    ::madvise(&*sparse->begin(), sparse->size() * sizeof(*sparse->begin()), MADV_DONTNEED);
                }
            }
        }

    public:
        NodeLocations(std::string directory, std::string nodes_file, cosm_node_store store, WayNodeReferences references,
                      uint64_t resident_budget) :
            m_directory(std::move(directory)),
            m_nodes_file(std::move(nodes_file)),
            m_store(store),
            m_references(references),
            m_budget(resident_budget) {
            if (m_store == COSM_NODE_STORE_AUTOMATIC) {
                m_store = m_references.dense_is_smaller() ? COSM_NODE_STORE_DENSE_FILE : COSM_NODE_STORE_SPARSE_FILE;
            }
            if (m_store == COSM_NODE_STORE_DENSE_FILE) {
                m_dense = std::make_unique<DenseLocationFile>(new_file(false), m_references.largest_positive_id + 1);
            }
        }

        cosm_node_store store() const noexcept { return m_store; }

        void node(const osmium::Node& node) {
            const auto id = node.positive_id();
            if (node.id() > 0 && id > m_references.largest_positive_id) {
                return;  // no way uses it
            }
            drop_mapped_pages_over_budget(1);
            if (node.id() > 0 && m_dense) {
                m_dense->set(id, node.location());
                return;
            }
            if (id < m_last_id) {
                m_must_sort = true;
            }
            m_last_id = id;
            index(node.id() < 0).set(id, node.location());
        }

        /// A way whose nodes are not looked up: counted all the same, so that the mapped pages are checked as often
        /// along the file as when every way was looked up (checked less often, they overshot the budget further).
        void pass_over(const osmium::Way& way) {
            drop_mapped_pages_over_budget(way.nodes().size());
        }

        /// Sets the location of each of the way's nodes; a node not in the file gets an undefined location.
        void way(osmium::Way& way) {
            if (m_must_sort) {
                for (auto& index : m_indexes) {
                    if (index) {
                        index->sort();
                    }
                }
                m_must_sort = false;
                m_last_id = std::numeric_limits<osmium::unsigned_object_id_type>::max();
            }
            drop_mapped_pages_over_budget(way.nodes().size());
            for (auto& node_ref : way.nodes()) {
                node_ref.set_location(get(node_ref.ref()));
            }
        }
    };

} // namespace cosmium

#endif
