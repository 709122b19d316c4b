// travel411's reader of OpenStreetMap extracts: libosmium behind the C interface in include/COSMium.h.
// One translation unit on purpose: libosmium is header-only and its headers dominate the compile time.

// First: it redirects libosmium's inflate of PBF blocks (see there).
#include "PBFInflate.hpp"

#include "COSMium.h"
#include "NodeLocationStore.hpp"
#include "ObjectStream.hpp"
#include "ReadMemory.hpp"
#include "RelationAreaStore.hpp"

#include <osmium/area/assembler.hpp>
#include <osmium/area/problem_reporter.hpp>
#include <osmium/handler.hpp>
#include <osmium/handler/check_order.hpp>
#include <osmium/index/map/sparse_file_array.hpp>
#include <osmium/index/map/sparse_mem_array.hpp>
#include <osmium/io/bzip2_compression.hpp>
#include <osmium/io/gzip_compression.hpp>
#include <osmium/io/pbf_input.hpp>
#include <osmium/io/xml_input.hpp>
#include <osmium/osm/area.hpp>
#include <osmium/osm/timestamp.hpp>
#include <osmium/tags/tags_filter.hpp>
#include <osmium/thread/pool.hpp>
#include <osmium/visitor.hpp>

#undef uncompress

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <future>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <unistd.h>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace {

    using cosmium::NodeLocations;
    using cosmium::temporary_file_error;
    using cosmium::WayNodeReferences;

    /// The callback asked to stop; unwinds both passes.
    struct stop_reading {};

    /// libosmium keeps a tag as its key and value with a NUL after each, and walks a tag list with strlen; a PBF
    /// string with a NUL inside it (which protobuf allows and OSM never has) would make that walk step past the
    /// list's end. Every element is checked before any of libosmium's handlers looks at its tags.
    bool tags_are_well_formed(const osmium::OSMObject& object) {
        const osmium::TagList& tags = object.tags();
        const char* position = reinterpret_cast<const char*>(tags.data()) + sizeof(osmium::TagList);
        const char* const end = reinterpret_cast<const char*>(tags.data()) + tags.byte_size();
        while (position < end) {
            for (int part = 0; part < 2; ++part) {  // key, then value
                const void* nul = position < end ? std::memchr(position, 0, static_cast<size_t>(end - position)) : nullptr;
                if (nul == nullptr) {
                    return false;
                }
                position = static_cast<const char*>(nul) + 1;
            }
        }
        return position == end;
    }

    const char* type_name(osmium::item_type type) {
        switch (type) {
        case osmium::item_type::node:
            return "node";
        case osmium::item_type::way:
            return "way";
        default:
            return "relation";
        }
    }

    void check_tags(const osmium::OSMObject& object) {
        if (!tags_are_well_formed(object)) {
            throw std::runtime_error{std::string{"PBF error: "} + type_name(object.type()) + " " + std::to_string(object.id()) +
                                     " has a tag with a NUL byte inside its key or value"};
        }
    }

    /// Remembers which areas failed because a ring did not close, so that the empty area the assembler then
    /// makes is reported with that reason. Only failing objects are kept.
    class RingProblems : public osmium::area::ProblemReporter {
    public:
        std::unordered_set<uint64_t> unclosed;

        static uint64_t key(bool from_way, osmium::object_id_type id) noexcept {
            return (static_cast<uint64_t>(id) << 1U) | (from_way ? 0U : 1U);
        }

        void report_ring_not_closed(const osmium::NodeRef& /*node*/, const osmium::Way* /*way*/) override {
            unclosed.insert(key(m_object_type == osmium::item_type::way, m_object_id));
        }
    };

    class KeySet {
        std::unordered_set<std::string> m_keys;

    public:
        KeySet(const char* const* keys, size_t count) {
            for (size_t i = 0; i < count; ++i) {
                if (keys[i] != nullptr) {
                    m_keys.emplace(keys[i]);
                }
            }
        }
        bool matches(const osmium::TagList& tags) const {
            for (const auto& tag : tags) {
                if (m_keys.count(tag.key()) != 0) {
                    return true;
                }
            }
            return false;
        }
        osmium::TagsFilter filter() const {
            osmium::TagsFilter filter{false};
            for (const auto& key : m_keys) {
                filter.add_rule(true, osmium::TagMatcher{key});
            }
            return filter;
        }
    };

    /// The tags the callback reads (cosm_options.kept_keys, kept_key_prefixes): a key's index in the list, -1 for a
    /// key kept by its prefix, nothing for a key left out.
    class KeptKeys {
        std::unordered_map<std::string_view, int32_t> m_indices;
        std::vector<std::string_view> m_prefixes;

    public:
        explicit KeptKeys(const cosm_options& options) {
            for (size_t i = 0; options.kept_keys != nullptr && i < options.kept_key_count; ++i) {
                if (options.kept_keys[i] != nullptr) {
                    m_indices.emplace(options.kept_keys[i], static_cast<int32_t>(i));
                }
            }
            for (size_t i = 0; options.kept_key_prefixes != nullptr && i < options.kept_key_prefix_count; ++i) {
                if (options.kept_key_prefixes[i] != nullptr) {
                    m_prefixes.emplace_back(options.kept_key_prefixes[i]);
                }
            }
        }
        /// The key's index, -1 when only a prefix keeps it (or when no list was given), nullopt when it is left out.
        std::optional<int32_t> find(const char* key) const {
            if (m_indices.empty() && m_prefixes.empty()) {
                return -1;
            }
            const std::string_view view{key};
            if (const auto found = m_indices.find(view); found != m_indices.end()) {
                return found->second;
            }
            for (const auto& prefix : m_prefixes) {
                if (view.substr(0, prefix.size()) == prefix) {
                    return -1;
                }
            }
            return std::nullopt;
        }
    };

    /// libosmium 2.19's PBF parser reads an uncompressed file straight from the descriptor the Reader opened and
    /// closes it only when the whole file has parsed: a file that fails (a broken header, a bad blob) leaked its
    /// descriptor, and a long run of broken files (the fuzzer: 40,000 of them) ran out. This parser wraps
    /// libosmium's, closes the descriptor when it fails, and hands the failure on as libosmium's own parse() would.
    class DescriptorClosingPBFParser : public osmium::io::detail::Parser {
        std::unique_ptr<osmium::io::detail::Parser> m_parser;
        int m_fd;

        /// Parser::header_is_done() of another parser (protected, reached through a member pointer).
        struct HeaderState : osmium::io::detail::Parser {
            static bool is_done(const osmium::io::detail::Parser& parser) {
                return (parser.*(&HeaderState::header_is_done))();
            }
        };

    public:
        DescriptorClosingPBFParser(osmium::io::detail::parser_arguments& args, std::unique_ptr<osmium::io::detail::Parser> parser) :
            Parser(args),
            m_parser(std::move(parser)),
            m_fd(args.fd) {
        }

        void run() override {
            try {
                m_parser->run();
            } catch (...) {
                if (m_fd >= 0) {
                    ::close(m_fd);
                }
                if (!HeaderState::is_done(*m_parser)) {
                    throw;  // Parser::parse() sets it as the header's exception and queues it
                }
                // The header promise is kept already: queue the failure without touching it.
                std::promise<osmium::memory::Buffer> failed;
                failed.set_exception(std::current_exception());
                send_to_output_queue(failed.get_future());
            }
        }
    };

    void use_descriptor_closing_pbf_parser() {
        static std::once_flag once;
        std::call_once(once, [] {
            auto& factory = osmium::io::detail::ParserFactory::instance();
            auto libosmium_parser = factory.get_creator_function(osmium::io::File{"", "pbf"});
            factory.register_parser(osmium::io::file_format::pbf, [libosmium_parser](osmium::io::detail::parser_arguments& args) {
                return std::unique_ptr<osmium::io::detail::Parser>(new DescriptorClosingPBFParser{args, libosmium_parser(args)});
            });
        });
    }

    /// Everything one read needs; the element handed to the callback is rebuilt in place for each element.
    class ExtractReader {
        const cosm_options& m_options;
        cosm_element_callback m_element_callback;
        cosm_warning_callback m_warning_callback;
        void* m_context;
        cosm_counts& m_counts;

        KeySet m_node_keys;
        KeySet m_line_keys;
        KeySet m_area_keys;
        KeptKeys m_kept_keys;

        /// The nodes of addr:interpolation ways (found in the first pass), each with the number of its line's address in
        /// `m_line_addresses` (`no_line_address` when the first line holding it has none), and their house numbers
        /// (second pass): the ends and any numbered node between them, where Nominatim splits the line (osmline_update).
        std::unordered_map<osmium::object_id_type, std::uint32_t> m_interpolation_nodes;
        static constexpr std::uint32_t no_line_address = UINT32_MAX;
        std::unordered_map<osmium::object_id_type, std::string> m_end_housenumbers;
        /// The addr:postcode of those numbered nodes, which gives the line's pieces theirs (osmline_update).
        std::unordered_map<osmium::object_id_type, std::string> m_end_postcodes;
        /// Administrative boundaries' `label` node members (first pass), by relation, until the area is delivered:
        /// Nominatim links a boundary to its label node first (`find_linked_place`).
        std::unordered_map<osmium::object_id_type, osmium::object_id_type> m_label_of_relation;
        std::unordered_set<osmium::object_id_type> m_label_nodes;
        std::vector<const char*> m_node_housenumbers;
        std::vector<const char*> m_node_postcodes;
        /// The addr:street (else addr:place) of the nodes of addr:interpolation ways, which a line without its own
        /// inherits (Nominatim's get_interpolation_address).
        std::unordered_map<osmium::object_id_type, std::string> m_node_streets;
        /// The address tags of addr:interpolation ways (first pass), each line's once: a node of the line with an address
        /// of its own takes those it lacks (Nominatim 5.3's placex_indexing_prepare merges `place_interpolation.address`
        /// under a rank-30 node's own), so a numbered end node without addr:street has the line's street.
        std::vector<std::vector<std::pair<std::string, std::string>>> m_line_addresses;

        std::vector<const char*> m_keys;
        std::vector<const char*> m_values;
        std::vector<int32_t> m_key_indices;
        std::vector<double> m_coordinates;
        std::vector<size_t> m_ring_ends;
        std::vector<unsigned char> m_ring_is_outer;
        size_t m_file_in_use = 0;

    public:
        ExtractReader(const cosm_options& options, cosm_element_callback element, cosm_warning_callback warning, void* context,
                      cosm_counts& counts) :
            m_options(options),
            m_element_callback(element),
            m_warning_callback(warning),
            m_context(context),
            m_counts(counts),
            m_node_keys(options.node_keys, options.node_key_count),
            m_line_keys(options.line_keys, options.line_key_count),
            m_area_keys(options.area_keys, options.area_key_count),
            m_kept_keys(options) {
        }

        /// Reads one file, or several as one (`ObjectStream`).
        void read(const std::vector<cosmium::InputFile>& files) {
            use_descriptor_closing_pbf_parser();
            cosmium::bound_blocks_decoded_ahead(m_options.decoding_threads);
            cosmium::FreePagesReturn free_pages;
            std::unique_ptr<osmium::thread::Pool> own_pool;
            if (m_options.decoding_threads > 0) {
                own_pool = std::make_unique<osmium::thread::Pool>(m_options.decoding_threads);
            }
            osmium::thread::Pool& pool = own_pool ? *own_pool : osmium::thread::Pool::default_instance();

            RingProblems ring_problems;
            osmium::area::Assembler::config_type assembler_config;
            assembler_config.problem_reporter = &ring_problems;
            assembler_config.create_empty_areas = true;
            // Left false (`check_roles`): libosmium's assembler decides which ring is outer and which inner by their
            // nesting alone and reads the members' roles only to report them (AssemblerConfig::check_roles,
            // docs.osmcode.org/libosmium), as in osm2pgsql, which Nominatim imports with: a boundary the extract cut
            // to its `inner` ring is a polygon of that ring (Youssoufia's cercle; OSMInnerRingBoundaryTests).
            // A member way's nodes missing at the extract's edge are passed over, the ring closed over the gap, as
            // osm2pgsql (which Nominatim imports with) builds a way from the nodes it has: a boundary cut by the
            // extract's box is still a polygon there (North Vancouver City in a Vancouver extract).
            assembler_config.ignore_invalid_locations = true;
            const std::string temporary_directory{m_options.temporary_directory != nullptr ? m_options.temporary_directory : ""};
            // The relations and their member ways (with their nodes' locations) go where the node store goes: a
            // `--nodes-file` names the disk chosen for the read's big files.
            cosmium::RelationAreaStore areas{assembler_config, m_area_keys.filter(), relations_directory(temporary_directory)};

            // Pass 1: the multipolygon and boundary relations, the end nodes of interpolation lines, and which node
            // ids the ways use (for the node store). The relations are counted here, and their newest timestamp
            // taken (the metadata is read for that), so that pass 2 need not read them: libosmium decoded up to 20
            // blocks of relations ahead (its queue) while the reading thread waited for the features' thread, and a
            // block of 8,000 relations with their members is tens of MB once decoded (heaptrack: 367 MB of them at
            // once in 150 copies of the Helsinki extract), which the allocator then kept.
            WayNodeReferences references;
            {
                cosmium::ObjectStream stream{files, osmium::osm_entity_bits::way | osmium::osm_entity_bits::relation,
                                             osmium::io::read_meta::yes, pool, m_file_in_use};
                stream.for_each(
                    [&](osmium::OSMObject& item) {
                        note_last(item.type() == osmium::item_type::way ? COSM_WAY : COSM_RELATION, item.id());
                        check_tags(item);
                        note_timestamp(item);
                        if (item.type() == osmium::item_type::relation) {
                            ++m_counts.relations;
                            const auto& relation = static_cast<const osmium::Relation&>(item);
                            note_label_member(relation);
                            areas.relation(relation);
                        } else if (item.type() == osmium::item_type::way) {
                            const auto& way = static_cast<const osmium::Way&>(item);
                            references.add(way);
                            if (way.tags().has_key("addr:interpolation")) {
                                const auto address = note_line_address(way);
                                for (const auto& node_ref : way.nodes()) {
                                    // A node ending two lines: the first line's address that has one.
                                    const auto [entry, added] = m_interpolation_nodes.emplace(node_ref.ref(), address);
                                    if (!added && entry->second == no_line_address) {
                                        entry->second = address;
                                    }
                                }
                            }
                        }
                    },
                    [&] {
                        report_progress(1, stream);
                        free_pages.after_block();
                    });
                stream.close();
                areas.prepare_for_lookup();
            }
            free_pages.now();

            // Pass 2: every element, node locations into the index, areas assembled as their members come by.
            const cosm_node_store store = m_options.locations_in_memory != 0 ? COSM_NODE_STORE_MEMORY : m_options.node_store;
            NodeLocations locations{temporary_directory, m_options.nodes_file != nullptr ? m_options.nodes_file : "", store, references,
                                    m_options.resident_node_bytes != 0 ? m_options.resident_node_bytes : uint64_t{256} << 20U};
            m_counts.node_store = locations.store();

            areas.set_callback([&](osmium::memory::Buffer&& area_buffer) {
                for (const auto& area : area_buffer.select<osmium::Area>()) {
                    this->area(area, ring_problems);
                }
            });
            // With the elements' metadata, for their newest timestamp: 600 copies of Liechtenstein (39 M nodes) took
            // 2 % more CPU, the same peak memory.
            cosmium::ObjectStream stream{files, osmium::osm_entity_bits::node | osmium::osm_entity_bits::way, osmium::io::read_meta::yes,
                                         pool, m_file_in_use};
            if (m_options.node_extents != nullptr) {
                stream.track_node_extents();
            }
            int phase = 2;  // 3 once ways come: their blocks take longer than the nodes'
            stream.for_each(
                [&](osmium::OSMObject& item) {
                    check_tags(item);
                    note_timestamp(item);
                    switch (item.type()) {
                    case osmium::item_type::node: {
                        auto& node = static_cast<osmium::Node&>(item);
                        locations.node(node);
                        this->node(node);
                        break;
                    }
                    case osmium::item_type::way: {
                        phase = 3;
                        auto& way = static_cast<osmium::Way&>(item);
                        const bool line = m_line_keys.matches(way.tags());
                        const bool area = !line && m_area_keys.matches(way.tags());
                        // Only a way delivered or assembled needs its nodes' locations: the others (buildings
                        // without an address, waterways, barriers) hold 4 in 10 of Liechtenstein's way nodes.
                        if (line || area || areas.is_member(way)) {
                            locations.way(way);
                        } else {
                            locations.pass_over(way);
                        }
                        // A line with a key of the areas too (a closed `highway` with `area=yes`, a `barrier` that
                        // is also `landuse`) is an area as well: only these ask the areas' keys again.
                        const bool area_keyed = area || (line && way.nodes().size() > 3 && m_area_keys.matches(way.tags()));
                        const bool made = areas.way(way, area_keyed);
                        // A way of the areas that makes none (not closed, or its ring crosses itself) is a line, as
                        // Nominatim 5.3 keeps it (lib-lua/themes/nominatim/init.lua, `process_way`: `as_polygon()`,
                        // else `as_linestring()` unless longer than 30°): Bishkek's neighbourhood way 50743267.
                        this->way(way, line, area, area_keyed && !made && within_line_length(way));
                        break;
                    }
                    default:
                        break;
                    }
                },
                [&] {
                    report_progress(phase, stream);
                    free_pages.after_block();
                });
            report_progress(3, stream);  // the end, also of a file without ways
            areas.assemble_the_rest();
            areas.flush();
            stream.close();

            for (size_t i = 0; m_options.node_extents != nullptr && i < files.size(); ++i) {
                const osmium::Box& box = stream.node_extent(i);
                const bool valid = box.valid();
                const double nan = std::numeric_limits<double>::quiet_NaN();
                m_options.node_extents[4 * i] = valid ? box.bottom_left().lon() : nan;
                m_options.node_extents[4 * i + 1] = valid ? box.bottom_left().lat() : nan;
                m_options.node_extents[4 * i + 2] = valid ? box.top_right().lon() : nan;
                m_options.node_extents[4 * i + 3] = valid ? box.top_right().lat() : nan;
            }

            areas.for_each_incomplete_relation(
                [&](osmium::object_id_type id) { warn(COSM_WARNING_RELATION_MEMBERS_MISSING, COSM_RELATION, id); });
        }

        /// The file being read when the read stopped (an index into the files read).
        size_t file_in_use() const noexcept {
            return m_file_in_use;
        }

    private:
        std::string relations_directory(const std::string& temporary_directory) const {
            const std::string nodes_file{m_options.nodes_file != nullptr ? m_options.nodes_file : ""};
            const size_t slash = nodes_file.rfind('/');
            if (nodes_file.empty()) {
                return temporary_directory;
            }
            return slash == std::string::npos ? std::string{"."} : slash == 0 ? std::string{"/"} : nodes_file.substr(0, slash);
        }

        void report_progress(int pass, const cosmium::ObjectStream& stream) const {
            if (m_options.progress != nullptr) {
                const auto read = stream.progress();
                m_options.progress(pass, read.first, read.second, m_context);
            }
        }

        void note_last(cosm_element_type type, osmium::object_id_type id) noexcept {
            m_counts.last_element_type = type;
            m_counts.last_element_id = id;
        }

        void note_timestamp(const osmium::OSMObject& item) noexcept {
            m_counts.data_timestamp = std::max(m_counts.data_timestamp, static_cast<int64_t>(item.timestamp().seconds_since_epoch()));
        }

        void warn(cosm_warning warning, cosm_element_type type, osmium::object_id_type id) {
            if (m_warning_callback != nullptr) {
                m_warning_callback(warning, type, id, m_context);
            }
        }

        void collect_tags(const osmium::TagList& tags) {
            m_keys.clear();
            m_values.clear();
            m_key_indices.clear();
            for (const auto& tag : tags) {
                if (const auto index = m_kept_keys.find(tag.key())) {
                    m_keys.push_back(tag.key());
                    m_values.push_back(tag.value());
                    m_key_indices.push_back(*index);
                }
            }
        }

        cosm_element make_element(cosm_element_type type, osmium::object_id_type id, cosm_geometry_type geometry) {
            cosm_element element{};
            element.element_type = type;
            element.id = id;
            element.geometry_type = geometry;
            element.tag_count = m_keys.size();
            element.tag_keys = m_keys.data();
            element.tag_values = m_values.data();
            element.tag_key_indices = m_key_indices.data();
            element.coordinates = m_coordinates.data();
            element.point_count = m_coordinates.size() / 2;
            return element;
        }

        void deliver(const cosm_element& element) {
            if (m_element_callback(&element, m_context) != 0) {
                throw stop_reading{};
            }
        }

        void node(const osmium::Node& node) {
            ++m_counts.nodes;
            note_last(COSM_NODE, node.id());
            if (node.tags().empty()) {
                return;
            }
            const auto interpolation_node =
                m_interpolation_nodes.empty() ? m_interpolation_nodes.end() : m_interpolation_nodes.find(node.id());
            if (interpolation_node != m_interpolation_nodes.end()) {
                if (const char* housenumber = node.tags().get_value_by_key("addr:housenumber")) {
                    m_end_housenumbers[node.id()] = housenumber;
                    if (const char* postcode = node.tags().get_value_by_key("addr:postcode")) {
                        m_end_postcodes[node.id()] = postcode;
                    }
                }
                const char* street = node.tags().get_value_by_key("addr:street");
                if (street == nullptr) {
                    street = node.tags().get_value_by_key("addr:place");
                }
                if (street != nullptr) {
                    m_node_streets[node.id()] = street;
                }
            }
            if (!node.location().valid() || !m_node_keys.matches(node.tags())) {
                return;
            }
            collect_tags(node.tags());
            if (interpolation_node != m_interpolation_nodes.end()) {
                add_line_address(node, interpolation_node->second);
            }
            m_coordinates.clear();
            m_coordinates.push_back(node.location().lon_without_check());
            m_coordinates.push_back(node.location().lat_without_check());
            cosm_element element = make_element(COSM_NODE, node.id(), COSM_GEOMETRY_POINT);
            element.is_label_member = !m_label_nodes.empty() && m_label_nodes.count(node.id()) != 0 ? 1 : 0;
            deliver(element);
        }

        /// The keys of an interpolation way's address that its nodes inherit (those the features read).
        static constexpr const char* line_address_keys[] = {"addr:street", "addr:place", "addr:postcode", "addr:city"};

        /// The number of the way's address in `m_line_addresses`, or `no_line_address`.
        std::uint32_t note_line_address(const osmium::Way& way) {
            std::vector<std::pair<std::string, std::string>> address;
            for (const char* key : line_address_keys) {
                if (const char* value = way.tags().get_value_by_key(key)) {
                    address.emplace_back(key, value);
                }
            }
            if (address.empty()) {
                return no_line_address;
            }
            m_line_addresses.push_back(std::move(address));
            return static_cast<std::uint32_t>(m_line_addresses.size() - 1);
        }

        /// Adds to the collected tags of a node of an interpolation line the line's address tags it lacks, when the
        /// node has an address of its own and is a rank-30 object (no place but a house; placex_indexing_prepare).
        void add_line_address(const osmium::Node& node, std::uint32_t line_address) {
            if (line_address == no_line_address) {
                return;
            }
            const char* place = node.tags().get_value_by_key("place");
            if (place != nullptr && std::strcmp(place, "house") != 0) {
                return;
            }
            bool has_address = false;
            for (const auto& tag : node.tags()) {
                if (std::strncmp(tag.key(), "addr:", 5) == 0) {
                    has_address = true;
                    break;
                }
            }
            if (!has_address) {
                return;
            }
            for (const auto& [key, value] : m_line_addresses[line_address]) {
                if (node.tags().has_key(key.c_str())) {
                    continue;
                }
                if (const auto index = m_kept_keys.find(key.c_str())) {
                    m_keys.push_back(key.c_str());
                    m_values.push_back(value.c_str());
                    m_key_indices.push_back(*index);
                }
            }
        }

        /// An administrative boundary's first node member with the role `label`.
        void note_label_member(const osmium::Relation& relation) {
            const char* boundary = relation.tags().get_value_by_key("boundary");
            if (boundary == nullptr || std::strcmp(boundary, "administrative") != 0) {
                return;
            }
            for (const auto& member : relation.members()) {
                if (member.type() == osmium::item_type::node && std::strcmp(member.role(), "label") == 0) {
                    m_label_of_relation[relation.id()] = member.ref();
                    m_label_nodes.insert(member.ref());
                    return;
                }
            }
        }

        const char* end_housenumber(osmium::object_id_type id) const {
            const auto found = m_end_housenumbers.find(id);
            return found == m_end_housenumbers.end() ? nullptr : found->second.c_str();
        }

        const char* end_postcode(osmium::object_id_type id) const {
            const auto found = m_end_postcodes.find(id);
            return found == m_end_postcodes.end() ? nullptr : found->second.c_str();
        }

        /// Whether the way's line is at most 30° long, in degrees (`geom:length() > 30` of Nominatim's `process_way`).
        static bool within_line_length(const osmium::Way& way) {
            double length = 0;
            const osmium::Location* previous = nullptr;
            for (const auto& node_ref : way.nodes()) {
                const osmium::Location& location = node_ref.location();
                if (!location.valid()) {
                    continue;
                }
                if (previous != nullptr) {
                    length += std::hypot(location.lon() - previous->lon(), location.lat() - previous->lat());
                }
                previous = &location;
            }
            return length <= 30;
        }

        /// `line`: whether the way has a key of the lines; `area`: else whether it has one of the areas; `no_area`: whether
        /// it has a key of the areas, made no area, and is delivered as a line.
        void way(const osmium::Way& way, bool line, bool area, bool no_area) {
            ++m_counts.ways;
            note_last(COSM_WAY, way.id());
            if (way.nodes().size() < 2) {
                warn(COSM_WARNING_WAY_WITHOUT_NODES, COSM_WAY, way.id());
                return;
            }
            // Closed ways of interest as areas are checked here too: libosmium's assembler drops a closed way with
            // a node missing without a word.
            if (!line && !area) {
                return;
            }
            m_coordinates.clear();
            m_node_housenumbers.clear();
            m_node_postcodes.clear();
            const bool interpolation = line && way.tags().has_key("addr:interpolation");
            const char* node_street = nullptr;
            size_t missing = 0;
            for (const auto& node_ref : way.nodes()) {
                const osmium::Location location = node_ref.location();
                if (location.valid()) {
                    m_coordinates.push_back(location.lon_without_check());
                    m_coordinates.push_back(location.lat_without_check());
                    if (interpolation) {
                        m_node_housenumbers.push_back(end_housenumber(node_ref.ref()));
                        m_node_postcodes.push_back(end_postcode(node_ref.ref()));
                        const auto street = m_node_streets.find(node_ref.ref());
                        if (node_street == nullptr && street != m_node_streets.end()) {
                            node_street = street->second.c_str();
                        }
                    }
                } else {
                    ++missing;
                }
            }
            if (missing > 0) {
                warn(COSM_WARNING_WAY_NODES_MISSING, COSM_WAY, way.id());
            }
            if (!line && !no_area) {
                return;
            }
            collect_tags(way.tags());
            cosm_element element = make_element(COSM_WAY, way.id(), COSM_GEOMETRY_LINE);
            element.made_no_area = no_area ? 1 : 0;
            element.first_node_id = way.nodes().front().ref();
            element.last_node_id = way.nodes().back().ref();
            element.first_node_housenumber = end_housenumber(element.first_node_id);
            element.last_node_housenumber = end_housenumber(element.last_node_id);
            element.node_housenumbers = interpolation ? m_node_housenumbers.data() : nullptr;
            element.node_postcodes = interpolation ? m_node_postcodes.data() : nullptr;
            element.node_street = node_street;
            element.missing_nodes = missing;
            deliver(element);
        }

        void add_ring(const osmium::NodeRefList& ring, bool outer) {
            for (const auto& node_ref : ring) {
                m_coordinates.push_back(node_ref.location().lon_without_check());
                m_coordinates.push_back(node_ref.location().lat_without_check());
            }
            m_ring_ends.push_back(m_coordinates.size() / 2);
            m_ring_is_outer.push_back(outer ? 1 : 0);
        }

        void area(const osmium::Area& area, RingProblems& problems) {
            const cosm_element_type type = area.from_way() ? COSM_WAY : COSM_RELATION;
            const osmium::object_id_type id = area.orig_id();
            if (area.num_rings().first == 0) {
                const uint64_t key = RingProblems::key(area.from_way(), id);
                const bool unclosed = problems.unclosed.erase(key) != 0;
                warn(unclosed ? COSM_WARNING_RING_NOT_CLOSED : COSM_WARNING_INVALID_AREA, type, id);
                return;
            }
            m_coordinates.clear();
            m_ring_ends.clear();
            m_ring_is_outer.clear();
            for (const auto& outer : area.outer_rings()) {
                add_ring(outer, true);
                for (const auto& inner : area.inner_rings(outer)) {
                    add_ring(inner, false);
                }
            }
            collect_tags(area.tags());
            cosm_element element = make_element(type, id, COSM_GEOMETRY_AREA);
            element.ring_count = m_ring_ends.size();
            element.ring_ends = m_ring_ends.data();
            element.ring_is_outer = m_ring_is_outer.data();
            if (!area.from_way() && !m_label_of_relation.empty()) {
                const auto label = m_label_of_relation.find(id);
                if (label != m_label_of_relation.end()) {
                    element.label_node_id = label->second;
                    m_label_of_relation.erase(label);
                }
            }
            deliver(element);
        }
    };

    void write_message(char* error, size_t error_size, const std::string& message) noexcept {
        if (error == nullptr || error_size == 0) {
            return;
        }
        const size_t length = std::min(message.size(), error_size - 1);
        std::memcpy(error, message.data(), length);
        error[length] = '\0';
    }

} // namespace

namespace {

    cosm_status read_files(const std::vector<cosmium::InputFile>& files, const cosm_options* options, cosm_element_callback element,
                           cosm_warning_callback warning, void* context, cosm_counts* counts, char* error, size_t error_size) {
        cosm_counts local_counts{};
        cosm_counts& out = counts != nullptr ? *counts : local_counts;
        out = cosm_counts{};
        write_message(error, error_size, "");
        if (files.empty() || options == nullptr || element == nullptr) {
            write_message(error, error_size, "cosm_read: missing argument");
            return COSM_INTERNAL_ERROR;
        }
        try {
            ExtractReader reader{*options, element, warning, context, out};
            try {
                reader.read(files);
            } catch (...) {
                out.file_index = reader.file_in_use();
                throw;
            }
            return COSM_OK;
        } catch (const stop_reading&) {
            return COSM_STOPPED;
        } catch (const osmium::out_of_order_error& e) {
            write_message(error, error_size,
                          std::string{"the file is not sorted by element type and id ("} + e.what() +
                              "); sort it first, e.g. with `osmium sort`");
            return COSM_DATA_ERROR;
        } catch (const temporary_file_error& e) {
            write_message(error, error_size, e.what());
            return COSM_TEMPORARY_FILE_ERROR;
        } catch (const std::system_error& e) {
            write_message(error, error_size, e.what());
            return COSM_IO_ERROR;
        } catch (const std::bad_alloc&) {
            write_message(error, error_size, "out of memory");
            return COSM_INTERNAL_ERROR;
        } catch (const osmium::gzip_error& e) {
            // zlib's Z_BUF_ERROR at the close: the stream ended in the middle (a cut-short download), said as PBF's is.
            write_message(error, error_size, (e.gzip_error_code == Z_BUF_ERROR ? std::string{"unexpected EOF: "} : std::string{}) + e.what());
            return COSM_DATA_ERROR;
        } catch (const osmium::bzip2_error& e) {
            write_message(error, error_size,
                          (e.bzip2_error_code == BZ_UNEXPECTED_EOF ? std::string{"unexpected EOF: "} : std::string{}) + e.what());
            return COSM_DATA_ERROR;
        } catch (const std::exception& e) {
            // osmium::pbf_error, xml_error, gzip_error, bzip2_error, io_error, protozero::exception ...: the data is wrong.
            write_message(error, error_size, e.what());
            return COSM_DATA_ERROR;
        } catch (...) {
            write_message(error, error_size, "unknown error in libosmium");
            return COSM_INTERNAL_ERROR;
        }
    }

} // namespace

extern "C" cosm_status cosm_read(const char* path, const cosm_options* options, cosm_element_callback element,
                                 cosm_warning_callback warning, void* context, cosm_counts* counts, char* error,
                                 size_t error_size) {
    if (path == nullptr || options == nullptr) {
        return read_files({}, options, element, warning, context, counts, error, error_size);
    }
    return read_files({cosmium::InputFile{path, options->format != nullptr ? options->format : ""}}, options, element, warning,
                      context, counts, error, error_size);
}

extern "C" cosm_status cosm_read_files(const char* const* paths, const char* const* formats, size_t file_count,
                                       const cosm_options* options, cosm_element_callback element, cosm_warning_callback warning,
                                       void* context, cosm_counts* counts, char* error, size_t error_size) {
    std::vector<cosmium::InputFile> files;
    for (size_t i = 0; paths != nullptr && i < file_count; ++i) {
        if (paths[i] == nullptr) {
            return read_files({}, options, element, warning, context, counts, error, error_size);
        }
        const char* format = formats != nullptr && formats[i] != nullptr ? formats[i]
                             : options != nullptr && options->format != nullptr ? options->format
                                                                                 : "";
        files.push_back(cosmium::InputFile{paths[i], format});
    }
    return read_files(files, options, element, warning, context, counts, error, error_size);
}
