// A closed way's area without libosmium's assembler, when the way is a simple ring (COSMium.cpp includes it through
// RelationAreaStore.hpp; one translation unit). The assembler sorts the way's segments, lists and sorts their ends
// again, looks for rings touching and walks them by binary searches: 15 % of the reading thread at 100 copies of
// Liechtenstein, most of it buildings of five nodes. For a ring whose nodes are all at distinct, valid locations
// and whose segments do not cross, what it makes is known: one outer ring, counter-clockwise, from its smallest
// location (by x, then y). Any other way goes to the assembler, so the areas are the same.

#ifndef COSMIUM_SIMPLE_WAY_AREA_HPP
#define COSMIUM_SIMPLE_WAY_AREA_HPP

#include <osmium/area/detail/node_ref_segment.hpp>
#include <osmium/builder/osm_object_builder.hpp>
#include <osmium/memory/buffer.hpp>
#include <osmium/osm/way.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace cosmium {

    class SimpleWayArea {
        using Segment = osmium::area::detail::NodeRefSegment;

        std::vector<uint64_t> m_locations;  // reused: one allocation for the whole read
        std::vector<Segment> m_segments;

        /// A location as a number that sorts as `osmium::Location`'s operator< does: by x, then y.
        static uint64_t sort_key(const osmium::Location& location) noexcept {
            return (uint64_t{static_cast<uint32_t>(location.x()) ^ 0x80000000U} << 32U) |
                   (static_cast<uint32_t>(location.y()) ^ 0x80000000U);
        }

        /// Whether two of the segments cross, by the assembler's own test (`SegmentList::find_intersections`): the
        /// same pairs (x ranges sorted by their first end, then the y ranges) and the same `calculate_intersection`.
        bool segments_cross(const osmium::Way& way) {
            m_segments.clear();
            const osmium::NodeRefList& nodes = way.nodes();
            for (size_t i = 1; i < nodes.size(); ++i) {
                m_segments.emplace_back(nodes[i - 1], nodes[i], osmium::area::detail::role_type::outer, &way);
            }
            std::sort(m_segments.begin(), m_segments.end(),
                      [](const Segment& a, const Segment& b) { return a.first().location().x() < b.first().location().x(); });
            for (auto s1 = m_segments.cbegin(); s1 != m_segments.cend(); ++s1) {
                for (auto s2 = s1 + 1; s2 != m_segments.cend(); ++s2) {
                    if (osmium::area::detail::outside_x_range(*s2, *s1)) {
                        break;
                    }
                    if (osmium::area::detail::y_range_overlap(*s1, *s2) && osmium::area::detail::calculate_intersection(*s1, *s2)) {
                        return true;
                    }
                }
            }
            return false;
        }

    public:
        /// Adds the way's area to the buffer and returns true when the way is a simple ring (the caller has checked that
        /// it has more than three nodes and that its ends share a location); returns false, the buffer untouched, for
        /// the assembler to decide.
        bool add(const osmium::Way& way, osmium::memory::Buffer& buffer) {
            const osmium::NodeRefList& nodes = way.nodes();
            const size_t corners = nodes.size() - 1;  // the last node closes the ring
            m_locations.clear();
            for (size_t i = 0; i < corners; ++i) {
                if (!nodes[i].location().valid()) {
                    return false;
                }
                m_locations.push_back(sort_key(nodes[i].location()));
            }
            if (!nodes[corners].location().valid()) {
                return false;
            }
            // A location twice makes the assembler drop a segment or split the ring there.
            std::sort(m_locations.begin(), m_locations.end());
            if (std::adjacent_find(m_locations.cbegin(), m_locations.cend()) != m_locations.cend()) {
                return false;
            }
            if (segments_cross(way)) {
                return false;
            }
            // Twice the signed area, as the assembler's `ProtoRing` sums it (wrapping as its int64_t sum does).
            uint64_t sum = 0;
            size_t start = 0;
            for (size_t i = 0; i < corners; ++i) {
                const osmium::area::detail::vec a{nodes[i].location()};
                const osmium::area::detail::vec b{nodes[i + 1].location()};
                sum += static_cast<uint64_t>(a * b);
                if (sort_key(nodes[i].location()) == m_locations.front()) {
                    start = i;
                }
            }
            const auto twice_area = static_cast<int64_t>(sum);
            if (twice_area == 0) {  // the assembler's direction then depends on its segment order
                return false;
            }
            {
                osmium::builder::AreaBuilder builder{buffer};
                builder.initialize_from_object(way);
                builder.add_item(way.tags());
                osmium::builder::OuterRingBuilder ring{builder};
                // Counter-clockwise from the smallest location, as the assembler's outer rings are.
                for (size_t step = 0; step <= corners; ++step) {
                    const size_t i = twice_area > 0 ? (start + step) % corners : (start + corners - step % corners) % corners;
                    ring.add_node_ref(nodes[i]);
                }
            }
            buffer.commit();
            return true;
        }
    };

} // namespace cosmium

#endif
