// The multipolygon and boundary relations of travel411's extract reader, kept on disk (COSMium.cpp includes it; one
// translation unit). libosmium's MultipolygonManager keeps every such relation and every member way it has seen in
// memory until the relation is complete: at 2,400 copies of Liechtenstein that was 770 MB of the read's 1.2 GB, and
// for the planet (7 million such relations, 60 million member ways) tens of gigabytes. Here the relations go to a
// file in the first pass, their member ways (with their node locations) to another as they come by in the second,
// and what ties them together goes through sorts on disk, so that memory holds fixed buffers and one relation's
// members at a time.
//
// The areas come out exactly when and as libosmium's manager makes them: a relation is complete when its last
// member way is read, which in a file sorted by id is its member way of the largest id; the areas are assembled
// into the same callback buffer, flushed at the same points, so the features and their order do not change.

#ifndef COSMIUM_RELATION_AREA_STORE_HPP
#define COSMIUM_RELATION_AREA_STORE_HPP

#include "NodeLocationStore.hpp"
#include "SimpleWayArea.hpp"

#include <osmium/area/assembler.hpp>
#include <osmium/builder/osm_object_builder.hpp>
#include <osmium/handler/check_order.hpp>
#include <osmium/memory/buffer.hpp>
#include <osmium/memory/callback_buffer.hpp>
#include <osmium/osm/relation.hpp>
#include <osmium/osm/way.hpp>
#include <osmium/tags/taglist.hpp>
#include <osmium/tags/tags_filter.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <queue>
#include <string>
#include <sys/mman.h>
#include <unistd.h>
#include <unordered_map>
#include <utility>
#include <vector>

namespace cosmium {

    /// An object id as a key that sorts as the file does (`osmium::id_order`): 0, then -1, -2, …, then 1, 2, ….
    inline uint64_t id_key(osmium::object_id_type id) noexcept {
        if (id == 0) {
            return 0;
        }
        if (id < 0) {
            return static_cast<uint64_t>(-(id + 1)) + 1;
        }
        return (uint64_t{1} << 63U) + static_cast<uint64_t>(id);
    }

    /// An unlinked temporary file written at its end through a buffer, read anywhere (what is still in the buffer
    /// included).
    class SpillFile {
        TemporaryIndexFile m_file;
        std::vector<char> m_buffer;
        uint64_t m_written = 0;
        static constexpr size_t buffer_bytes = size_t{1} << 20U;

    public:
        SpillFile(const std::string& directory, const char* name) : m_file(TemporaryIndexFile::in_directory(directory, name)) {
            m_buffer.reserve(buffer_bytes);
        }

        uint64_t size() const noexcept { return m_written + m_buffer.size(); }
        int fd() const noexcept { return m_file.fd(); }

        uint64_t append(const void* data, size_t size) {
            const uint64_t offset = this->size();
            if (m_buffer.size() + size > buffer_bytes) {
                flush();
            }
            if (size > buffer_bytes) {
                write_at(static_cast<const char*>(data), size, m_written);
                m_written += size;
            } else {
                m_buffer.insert(m_buffer.end(), static_cast<const char*>(data), static_cast<const char*>(data) + size);
            }
            return offset;
        }

        void flush() {
            write_at(m_buffer.data(), m_buffer.size(), m_written);
            m_written += m_buffer.size();
            m_buffer.clear();
        }

        void read(uint64_t offset, size_t size, void* out) const {
            char* target = static_cast<char*>(out);
            while (size > 0 && offset < m_written) {
                const size_t part = static_cast<size_t>(std::min<uint64_t>(size, m_written - offset));
                const ssize_t got = ::pread(m_file.fd(), target, part, static_cast<off_t>(offset));
                if (got <= 0) {
                    throw temporary_file_error{errno, std::system_category(), "cannot read back a temporary file of the relations"};
                }
                target += got;
                offset += static_cast<uint64_t>(got);
                size -= static_cast<size_t>(got);
            }
            if (size > 0) {
                std::memcpy(target, m_buffer.data() + (offset - m_written), size);
            }
        }

    private:
        void write_at(const char* data, size_t size, uint64_t offset) {
            while (size > 0) {
                const ssize_t done = ::pwrite(m_file.fd(), data, size, static_cast<off_t>(offset));
                if (done <= 0) {
                    throw temporary_file_error{errno, std::system_category(),
                                               "cannot write a temporary file of the relations (is the disk full?)"};
                }
                data += done;
                offset += static_cast<uint64_t>(done);
                size -= static_cast<size_t>(done);
            }
        }
    };

    /// Sorts any number of plain records (by their operator<) in bounded memory: full buffers are sorted and
    /// written as runs of one file, which `Cursor` merges.
    template <typename TRecord>
    class ExternalSort {
        std::string m_directory;
        const char* m_name;
        size_t m_buffer_records;
        std::vector<TRecord> m_buffer;
        std::unique_ptr<SpillFile> m_file;
        std::vector<std::pair<uint64_t, uint64_t>> m_runs;  // first record, count
        /// What a cursor reads of a run at a time.
        static constexpr size_t block_records = std::max<size_t>(64, (size_t{64} << 10U) / sizeof(TRecord));

        void spill() {
            std::sort(m_buffer.begin(), m_buffer.end());
            if (!m_file) {
                m_file = std::make_unique<SpillFile>(m_directory, m_name);
            }
            const uint64_t first = m_file->size() / sizeof(TRecord);
            m_file->append(m_buffer.data(), m_buffer.size() * sizeof(TRecord));
            m_runs.emplace_back(first, m_buffer.size());
            m_buffer.clear();
        }

    public:
        ExternalSort(std::string directory, const char* name, size_t buffer_bytes) :
            m_directory(std::move(directory)),
            m_name(name),
            m_buffer_records(std::max<size_t>(1024, buffer_bytes / sizeof(TRecord))) {
        }

        void add(const TRecord& record) {
            if (m_buffer.capacity() == 0) {
                m_buffer.reserve(m_buffer_records);
            }
            m_buffer.push_back(record);
            if (m_buffer.size() >= m_buffer_records) {
                spill();
            }
        }

        /// The records in order, each run read a block at a time. Nothing may be added once a cursor is made.
        class Cursor {
            struct Run {
                uint64_t next;
                uint64_t end;
                std::vector<TRecord> block;
                size_t position = 0;
            };
            const SpillFile* m_file = nullptr;
            std::vector<TRecord> m_memory;  // all records, when they never left the buffer
            size_t m_memory_position = 0;
            std::vector<Run> m_runs;
            using Head = std::pair<TRecord, size_t>;
            struct Later {
                bool operator()(const Head& a, const Head& b) const { return b.first < a.first; }
            };
            std::priority_queue<Head, std::vector<Head>, Later> m_heads;

            bool refill(size_t run) {
                Run& r = m_runs[run];
                if (r.position == r.block.size()) {
                    if (r.next == r.end) {
                        return false;
                    }
                    const size_t count = static_cast<size_t>(std::min<uint64_t>(block_records, r.end - r.next));
                    r.block.resize(count);
                    m_file->read(r.next * sizeof(TRecord), count * sizeof(TRecord), r.block.data());
                    r.next += count;
                    r.position = 0;
                }
                m_heads.emplace(r.block[r.position++], run);
                return true;
            }

        public:
            Cursor() = default;
            Cursor(const SpillFile* file, std::vector<TRecord> memory, const std::vector<std::pair<uint64_t, uint64_t>>& runs) :
                m_file(file),
                m_memory(std::move(memory)) {
                std::sort(m_memory.begin(), m_memory.end());
                for (const auto& run : runs) {
                    m_runs.push_back(Run{run.first, run.first + run.second, {}, 0});
                }
                for (size_t run = 0; run < m_runs.size(); ++run) {
                    refill(run);
                }
            }

            bool valid() const noexcept { return m_runs.empty() ? m_memory_position < m_memory.size() : !m_heads.empty(); }
            const TRecord& head() const noexcept { return m_runs.empty() ? m_memory[m_memory_position] : m_heads.top().first; }
            void next() {
                if (m_runs.empty()) {
                    ++m_memory_position;
                    return;
                }
                const size_t run = m_heads.top().second;
                m_heads.pop();
                refill(run);
            }
        };

        /// The sorted records; the buffer's last records are written as a run first, unless nothing was spilled and
        /// they fit one block. A cursor lives through the whole second pass: one holding a buffer of records kept
        /// it all that time, more of it the larger the file until the buffer's first spill (the relations'
        /// schedule, 8 MB at 2,400 copies of Liechtenstein against about 1 MB at 600).
        Cursor finish() {
            if (m_runs.empty() && m_buffer.size() <= block_records) {
                return Cursor{nullptr, std::move(m_buffer), {}};
            }
            if (!m_buffer.empty()) {
                spill();
            }
            m_buffer = std::vector<TRecord>{};
            m_file->flush();
            return Cursor{m_file.get(), {}, m_runs};
        }
    };

    /// The multipolygon and boundary relations of interest and their member ways, on disk; hands over their
    /// areas, and the closed ways', as osmium's MultipolygonManager with its Assembler does.
    class RelationAreaStore {
        /// A relation, to be assembled once its member way of the largest id (`way_key`) has been read. Relations
        /// completed by the same way come in libosmium's order: by that way's (last) place among the relation's
        /// members, then by the relation's place in the file.
        struct Scheduled {
            uint64_t way_key;
            uint64_t member_number;
            uint64_t sequence;  // the relation's place in the file, among those kept
            int64_t id;
            uint64_t offset;
            uint64_t size;
            bool operator<(const Scheduled& other) const noexcept {
                if (way_key != other.way_key) {
                    return way_key < other.way_key;
                }
                return member_number != other.member_number ? member_number < other.member_number : sequence < other.sequence;
            }
        };
        /// A member way stored, by its id's key: where its bytes are in the ways' file.
        struct StoredWay {
            uint64_t key;
            uint64_t offset;
            uint64_t size;
        };
        struct MemberKey {
            uint64_t key;
            bool operator<(const MemberKey& other) const noexcept { return key < other.key; }
        };
        struct Incomplete {
            uint64_t sequence;
            int64_t id;
            bool operator<(const Incomplete& other) const noexcept { return sequence < other.sequence; }
        };

        osmium::area::Assembler::config_type m_config;
        osmium::TagsFilter m_filter;
        std::string m_directory;
        osmium::handler::CheckOrder m_check_order;
        osmium::memory::CallbackBuffer m_output{};

        SpillFile m_relations;
        SpillFile m_ways;
        SpillFile m_way_index;
        ExternalSort<MemberKey> m_members;
        ExternalSort<Scheduled> m_schedule;
        ExternalSort<Incomplete> m_incomplete;
        typename ExternalSort<MemberKey>::Cursor m_member_cursor;
        typename ExternalSort<Scheduled>::Cursor m_schedule_cursor;
        uint64_t m_sequence = 0;
        uint64_t m_stored_ways = 0;
        SimpleWayArea m_simple_way_area;

        /// The member ways' index read through a mapping, which a binary search touches a few pages of. It covers
        /// what the file holds, grown by doubling: a mapping of the largest size the file might reach would fail
        /// under an address-space limit (`ulimit -v`).
        void* m_index_mapping = MAP_FAILED;
        size_t m_mapped_bytes = 0;

        /// Maps the member ways' index as far as it is written; call before `find_way`, whose answers it moves.
        void map_way_index() {
            const size_t needed = static_cast<size_t>(m_stored_ways) * sizeof(StoredWay);
            if (needed <= m_mapped_bytes) {
                return;
            }
            size_t bytes = std::max<size_t>(m_mapped_bytes * 2, size_t{1} << 20U);
            while (bytes < needed) {
                bytes *= 2;
            }
            if (m_index_mapping != MAP_FAILED) {
                ::munmap(m_index_mapping, m_mapped_bytes);
                m_index_mapping = MAP_FAILED;
                m_mapped_bytes = 0;
            }
            // Pages past the file's end are never read: the search stays within the ways stored.
            void* mapping = ::mmap(nullptr, bytes, PROT_READ, MAP_SHARED | MAP_NORESERVE, m_way_index.fd(), 0);
            if (mapping == MAP_FAILED) {
                throw temporary_file_error{errno, std::system_category(), "cannot map the relations' member ways"};
            }
            m_index_mapping = mapping;
            m_mapped_bytes = bytes;
        }

        bool new_relation(const osmium::Relation& relation) const {
            const char* type = relation.tags().get_value_by_key("type");
            if (type == nullptr) {
                return false;
            }
            if ((std::strcmp(type, "multipolygon") == 0 || std::strcmp(type, "boundary") == 0) &&
                osmium::tags::match_any_of(relation.tags(), m_filter)) {
                return std::any_of(relation.members().cbegin(), relation.members().cend(),
                                   [](const osmium::RelationMember& member) { return member.type() == osmium::item_type::way; });
            }
            return false;
        }

        const StoredWay* find_way(uint64_t key) const noexcept {
            if (m_stored_ways == 0) {
                return nullptr;
            }
            const auto* first = static_cast<const StoredWay*>(m_index_mapping);
            const auto* last = first + m_stored_ways;
            const auto* found = std::lower_bound(first, last, key, [](const StoredWay& way, uint64_t k) { return way.key < k; });
            return found != last && found->key == key ? found : nullptr;
        }

        void store_member_way(const osmium::Way& way) {
            const StoredWay stored{id_key(way.id()), m_ways.append(way.data(), way.padded_size()), way.padded_size()};
            m_way_index.append(&stored, sizeof(stored));
            ++m_stored_ways;
        }

        /// Assembles the relation from its member ways that are stored; returns false when one is missing. A relation
        /// cut by the extract is assembled from the ways there are, as osm2pgsql (which Nominatim imports with) builds
        /// a relation's multipolygon from the members its middle holds: a building relation whose closed outer way is
        /// in the extract is an area, a boundary whose rings the cut leaves open is none. Such an area is made
        /// without reporting its open rings, since the relation is reported as having members missing already.
        bool complete(const Scheduled& scheduled) {
            osmium::memory::Buffer relation_buffer{static_cast<size_t>(scheduled.size), osmium::memory::Buffer::auto_grow::no};
            m_relations.read(scheduled.offset, static_cast<size_t>(scheduled.size), relation_buffer.reserve_space(scheduled.size));
            relation_buffer.commit();
            const auto& relation = relation_buffer.get<osmium::Relation>(0);

            m_ways.flush();
            m_way_index.flush();
            map_way_index();
            std::vector<const StoredWay*> stored;
            std::vector<bool> present;  // by member: a way member whose way is stored, or another member
            size_t bytes = 0;
            bool every_member = true;
            for (const auto& member : relation.members()) {
                present.push_back(member.type() != osmium::item_type::way || member.ref() != 0);
                if (member.ref() != 0) {
                    const StoredWay* way = find_way(id_key(member.ref()));
                    if (way == nullptr) {
                        every_member = false;
                        present.back() = false;  // only way members have a ref here
                        continue;
                    }
                    stored.push_back(way);
                    bytes += static_cast<size_t>(way->size);
                }
            }
            if (stored.empty()) {
                return every_member;
            }
            // One buffer of the right size: the ways' addresses stay put while the assembler reads them.
            osmium::memory::Buffer way_buffer{std::max<size_t>(bytes, 64), osmium::memory::Buffer::auto_grow::no};
            std::vector<const osmium::Way*> ways;
            std::unordered_map<uint64_t, const osmium::Way*> read;  // a way named twice is handed over twice, as one
            for (const StoredWay* way : stored) {
                const auto known = read.find(way->key);
                if (known != read.end()) {
                    ways.push_back(known->second);
                    continue;
                }
                unsigned char* place = way_buffer.reserve_space(static_cast<size_t>(way->size));
                m_ways.read(way->offset, static_cast<size_t>(way->size), place);
                way_buffer.commit();
                ways.push_back(reinterpret_cast<const osmium::Way*>(place));
                read.emplace(way->key, ways.back());
            }
            try {
                if (every_member) {
                    osmium::area::Assembler assembler{m_config};
                    assembler(relation, ways, m_output.buffer());
                } else {
                    osmium::memory::Buffer partial = relation_without_missing_ways(relation, present);
                    osmium::area::Assembler::config_type config = m_config;
                    config.problem_reporter = nullptr;
                    config.create_empty_areas = false;
                    osmium::area::Assembler assembler{config};
                    assembler(partial.get<osmium::Relation>(0), ways, m_output.buffer());
                }
            } catch (const osmium::invalid_location&) {
                // as libosmium's manager: no area
            }
            m_output.possibly_flush();
            return every_member;
        }

        /// A copy of the relation naming only the member ways stored, in their order: the assembler pairs the
        /// relation's way members with the ways it is given, one for one.
        osmium::memory::Buffer relation_without_missing_ways(const osmium::Relation& relation, const std::vector<bool>& present) {
            osmium::memory::Buffer buffer{relation.padded_size() + 64, osmium::memory::Buffer::auto_grow::yes};
            {
                osmium::builder::RelationBuilder builder{buffer};
                builder.set_id(relation.id())
                    .set_version(relation.version())
                    .set_changeset(relation.changeset())
                    .set_timestamp(relation.timestamp())
                    .set_uid(relation.uid())
                    .set_visible(relation.visible());
                builder.set_user(relation.user());
                builder.add_item(relation.tags());
                osmium::builder::RelationMemberListBuilder members{builder};
                size_t number = 0;
                for (const auto& member : relation.members()) {
                    if (present[number++]) {
                        members.add_member(member.type(), member.ref(), member.role());
                    }
                }
            }
            buffer.commit();
            return buffer;
        }

        /// libosmium's MultipolygonManager::after_way: a closed way of interest is an area. `has_area_key`: whether a
        /// tag's key is one of the areas' (the manager's filter, which the caller has asked already). Whether an area
        /// with rings was made of it.
        bool after_way(const osmium::Way& way, bool has_area_key) {
            if (way.nodes().size() <= 3) {
                return false;
            }
            try {
                if (!way.nodes().front().location() || !way.nodes().back().location()) {
                    throw osmium::invalid_location{"invalid location"};
                }
                if (way.ends_have_same_location()) {
                    if (!has_area_key || way.tags().has_tag("area", "no")) {
                        return false;
                    }
                    if (m_simple_way_area.add(way, m_output.buffer())) {
                        m_output.possibly_flush();
                        return true;
                    }
                    // An area that fails is still written, empty (`create_empty_areas`), for its warning.
                    const size_t before = m_output.buffer().committed();
                    osmium::area::Assembler assembler{m_config};
                    assembler(way, m_output.buffer());
                    const bool made = m_output.buffer().committed() > before &&
                                      m_output.buffer().get<osmium::Area>(before).num_rings().first > 0;
                    m_output.possibly_flush();
                    return made;
                }
            } catch (const osmium::invalid_location&) {
                // as libosmium's manager: no area
            }
            return false;
        }

    public:
        RelationAreaStore(const osmium::area::Assembler::config_type& config, osmium::TagsFilter filter, const std::string& directory) :
            m_config(config),
            m_filter(std::move(filter)),
            m_directory(directory),
            m_relations(directory, "relations"),
            m_ways(directory, "member-ways"),
            m_way_index(directory, "member-way-index"),
            m_members(directory, "members", size_t{8} << 20U),
            m_schedule(directory, "schedule", size_t{8} << 20U),
            m_incomplete(directory, "incomplete", size_t{1} << 20U) {
        }
        RelationAreaStore(const RelationAreaStore&) = delete;
        RelationAreaStore& operator=(const RelationAreaStore&) = delete;
        ~RelationAreaStore() {
            if (m_index_mapping != MAP_FAILED) {
                ::munmap(m_index_mapping, m_mapped_bytes);
            }
        }

        /// First pass: keeps a relation of interest, its non-way members' refs set to 0 as libosmium's manager does.
        void relation(const osmium::Relation& relation) {
            if (!new_relation(relation)) {
                return;
            }
            osmium::memory::Buffer copy{relation.padded_size() + 64, osmium::memory::Buffer::auto_grow::no};
            copy.add_item(relation);
            copy.commit();
            auto& kept = copy.get<osmium::Relation>(0);
            uint64_t largest = 0;
            uint64_t largest_number = 0;
            uint64_t number = 0;
            for (auto& member : kept.members()) {
                if (member.type() != osmium::item_type::way) {
                    member.set_ref(0);
                } else if (member.ref() != 0) {
                    const uint64_t key = id_key(member.ref());
                    if (key >= largest) {
                        largest = key;
                        largest_number = number;
                    }
                    m_members.add(MemberKey{key});
                }
                ++number;
            }
            if (largest == 0) {  // no way to wait for: never complete, as in libosmium's manager
                m_incomplete.add(Incomplete{m_sequence++, kept.id()});
                return;
            }
            const uint64_t offset = m_relations.append(kept.data(), kept.padded_size());
            m_schedule.add(Scheduled{largest, largest_number, m_sequence++, kept.id(), offset, kept.padded_size()});
        }

        /// After the first pass: the member ways and the relations ready to be read in the order of the ways.
        void prepare_for_lookup() {
            m_member_cursor = m_members.finish();
            m_schedule_cursor = m_schedule.finish();
        }

        void set_callback(const std::function<void(osmium::memory::Buffer&&)>& callback) { m_output.set_callback(callback); }

        /// Whether a relation kept names the way (asked in the file's order, as `way` is called).
        bool is_member(const osmium::Way& way) {
            const uint64_t key = id_key(way.id());
            while (m_member_cursor.valid() && m_member_cursor.head().key < key) {
                m_member_cursor.next();
            }
            return m_member_cursor.valid() && m_member_cursor.head().key == key;
        }

        /// Second pass, every way in the file's order (its node locations set when it is a member or has a key of the
        /// areas): stores it when a relation names it, assembles the relations whose last member it is, then the way
        /// itself when it is a closed area (`has_area_key`: a tag's key is one of the areas'). Whether the way made an
        /// area with rings.
        bool way(const osmium::Way& way, bool has_area_key) {
            m_check_order.way(way);
            const uint64_t key = id_key(way.id());
            if (is_member(way)) {
                store_member_way(way);
            }
            while (m_schedule_cursor.valid() && m_schedule_cursor.head().way_key <= key) {
                const Scheduled scheduled = m_schedule_cursor.head();
                m_schedule_cursor.next();
                if (!complete(scheduled)) {  // its largest member way passed and missing, or another
                    m_incomplete.add(Incomplete{scheduled.sequence, scheduled.id});
                }
            }
            const bool made = after_way(way, has_area_key);
            m_output.possibly_flush();
            return made;
        }

        /// After the last way: the relations still waiting for a member way beyond the file's last are assembled
        /// from the ways there are, then counted as incomplete.
        void assemble_the_rest() {
            while (m_schedule_cursor.valid()) {
                const Scheduled scheduled = m_schedule_cursor.head();
                m_schedule_cursor.next();
                complete(scheduled);
                m_incomplete.add(Incomplete{scheduled.sequence, scheduled.id});
            }
            m_output.possibly_flush();
        }

        void flush() { m_output.flush(); }

        /// Every relation that was not complete, in the order of the file, by id.
        template <typename TFunc>
        void for_each_incomplete_relation(TFunc&& func) {
            while (m_schedule_cursor.valid()) {
                m_incomplete.add(Incomplete{m_schedule_cursor.head().sequence, m_schedule_cursor.head().id});
                m_schedule_cursor.next();
            }
            for (auto cursor = m_incomplete.finish(); cursor.valid(); cursor.next()) {
                func(cursor.head().id);
            }
        }
    };

} // namespace cosmium

#endif
