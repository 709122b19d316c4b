#ifndef COSMIUM_OBJECT_STREAM_HPP
#define COSMIUM_OBJECT_STREAM_HPP

// The objects of one file, or of several files read as one: neighbouring extracts (two countries, two regions)
// share the objects along their border, and a database built from both must hold each of them once. The files are
// merged as `osmium merge` merges them: objects in the order of type, then id, and an object more than one file
// holds comes once, in its newest version (the first file's when the versions are equal). Each file must be
// sorted by type and id, as every extract published is; one that is not is named in the error.

#include <osmium/io/reader.hpp>
#include <osmium/memory/buffer.hpp>
#include <osmium/osm/box.hpp>
#include <osmium/osm/node.hpp>
#include <osmium/osm/object.hpp>
#include <osmium/osm/object_comparisons.hpp>
#include <osmium/handler/check_order.hpp>
#include <osmium/thread/pool.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cosmium {

    /// A file to read and libosmium's name for its format ("pbf", "osm", "osm.gz", "osm.bz2"; empty: from its name).
    struct InputFile {
        std::string path;
        std::string format;
    };

    class ObjectStream {
        struct Input {
            std::unique_ptr<osmium::io::Reader> reader;
            osmium::memory::Buffer buffer;
            osmium::memory::Buffer::t_iterator<osmium::OSMObject> position;
            osmium::memory::Buffer::t_iterator<osmium::OSMObject> end;
            bool exhausted = false;
            bool started = false;
            osmium::item_type last_type = osmium::item_type::undefined;
            osmium::object_id_type last_id = 0;
            /// The extent of the file's node locations read so far (`track_node_extents`).
            osmium::Box node_extent;
        };

        std::vector<Input> m_inputs;
        /// The file being read when something throws, for the error message.
        size_t& m_file_in_use;
        bool m_track_node_extents = false;

    public:
        ObjectStream(const std::vector<InputFile>& files, osmium::osm_entity_bits::type entities, osmium::io::read_meta meta,
                     osmium::thread::Pool& pool, size_t& file_in_use) :
            m_file_in_use(file_in_use) {
            m_inputs.resize(files.size());
            for (size_t i = 0; i < files.size(); ++i) {
                m_file_in_use = i;
                const osmium::io::File file{files[i].path, files[i].format};
                m_inputs[i].reader = std::make_unique<osmium::io::Reader>(file, entities, meta, pool);
            }
        }

        /// Keeps each file's `node_extent` from here on (before `for_each`).
        void track_node_extents() noexcept {
            m_track_node_extents = true;
        }

        /// The extent of file i's node locations (invalid when it had none or they were not tracked).
        const osmium::Box& node_extent(size_t i) const noexcept {
            return m_inputs[i].node_extent;
        }

        /// Bytes read so far over all files, and their total size.
        std::pair<uint64_t, uint64_t> progress() const {
            uint64_t offset = 0;
            uint64_t size = 0;
            for (const auto& input : m_inputs) {
                offset += input.reader->offset();
                size += input.reader->file_size();
            }
            return {offset, size};
        }

        /// Calls `object` for every object, in order, and `block` after each block of the files is read.
        template <typename ObjectFunction, typename BlockFunction>
        void for_each(ObjectFunction&& object, BlockFunction&& block) {
            if (m_inputs.size() == 1) {
                // One file: its blocks as they come, without the merge's comparisons.
                m_file_in_use = 0;
                osmium::io::Reader& reader = *m_inputs.front().reader;
                while (osmium::memory::Buffer buffer = reader.read()) {
                    block();
                    for (auto& item : buffer.select<osmium::OSMObject>()) {
                        note_extent(m_inputs.front(), item);
                        object(item);
                    }
                }
                return;
            }
            for (size_t i = 0; i < m_inputs.size(); ++i) {
                fill(i, block);
            }
            while (true) {
                size_t first = m_inputs.size();
                for (size_t i = 0; i < m_inputs.size(); ++i) {
                    if (!m_inputs[i].exhausted && (first == m_inputs.size() || before(*m_inputs[i].position, *m_inputs[first].position))) {
                        first = i;
                    }
                }
                if (first == m_inputs.size()) {
                    return;
                }
                // The newest version among the files that hold this object.
                size_t chosen = first;
                for (size_t i = first + 1; i < m_inputs.size(); ++i) {
                    if (!m_inputs[i].exhausted && same(*m_inputs[i].position, *m_inputs[first].position) &&
                        m_inputs[i].position->version() > m_inputs[chosen].position->version()) {
                        chosen = i;
                    }
                }
                m_file_in_use = chosen;
                object(*m_inputs[chosen].position);
                const osmium::item_type type = m_inputs[first].position->type();
                const osmium::object_id_type id = m_inputs[first].position->id();
                for (size_t i = first; i < m_inputs.size(); ++i) {
                    if (!m_inputs[i].exhausted && m_inputs[i].position->type() == type && m_inputs[i].position->id() == id) {
                        ++m_inputs[i].position;
                        fill(i, block);
                    }
                }
            }
        }

        void close() {
            for (auto& input : m_inputs) {
                input.reader->close();
            }
        }

    private:
        static bool before(const osmium::OSMObject& lhs, const osmium::OSMObject& rhs) noexcept {
            if (lhs.type() != rhs.type()) {
                return lhs.type() < rhs.type();
            }
            return osmium::id_order{}(lhs.id(), rhs.id());
        }

        void note_extent(Input& input, const osmium::OSMObject& object) const noexcept {
            if (m_track_node_extents && object.type() == osmium::item_type::node) {
                input.node_extent.extend(static_cast<const osmium::Node&>(object).location());
            }
        }

        static bool same(const osmium::OSMObject& lhs, const osmium::OSMObject& rhs) noexcept {
            return lhs.type() == rhs.type() && lhs.id() == rhs.id();
        }

        /// Moves input i to its next object, reading its next block when the current one is done, and checks that
        /// the file keeps its order (a merge of unsorted files would keep duplicates and drop nothing visibly).
        template <typename BlockFunction>
        void fill(size_t i, BlockFunction& block) {
            Input& input = m_inputs[i];
            m_file_in_use = i;
            while (!input.exhausted && input.position == input.end) {
                input.buffer = input.reader->read();
                if (!input.buffer) {
                    input.exhausted = true;
                    return;
                }
                block();
                input.position = input.buffer.begin<osmium::OSMObject>();
                input.end = input.buffer.end<osmium::OSMObject>();
            }
            if (input.exhausted) {
                return;
            }
            const osmium::OSMObject& next = *input.position;
            if (input.started && (next.type() < input.last_type ||
                                  (next.type() == input.last_type && !osmium::id_order{}(input.last_id, next.id())))) {
                throw osmium::out_of_order_error{std::string{"objects out of order: "} + osmium::item_type_to_name(next.type()) + " " +
                                                     std::to_string(next.id()) + " after " +
                                                     osmium::item_type_to_name(input.last_type) + " " + std::to_string(input.last_id),
                                                 next.id()};
            }
            note_extent(input, next);
            input.started = true;
            input.last_type = next.type();
            input.last_id = next.id();
        }
    };

} // namespace cosmium

#endif
