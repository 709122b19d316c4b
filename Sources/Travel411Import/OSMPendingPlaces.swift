import Foundation
import Travel411Core
import Travel411Geocoder

extension OSMLevelMapping {
    /// The extract's localities, place nodes, place areas and boundaries below the country's, which wait for the
    /// end of the read (a level is decided from all of them): on disk while the extract is read, and read back in
    /// the order they came, each list as it was, once it is done. In memory, their lists grew with the extract
    /// under the read's highest point (issue 35), when the read's own buffers are full; after the read they are
    /// gone.
    struct PendingPlaces {
        /// The lists as `OSMLevelMapping` keeps them, read back.
        struct Lists {
            var localities: [(name: String, population: Double, reach: Double, coordinate: Coordinate)] = []
            var townNodes: [OSMPlaceNodeAreas.Node] = []
            var suburbNodes: [OSMPlaceNodeAreas.Node] = []
            var cityPlaceAreas: [PendingArea] = []
            var suburbPlaceAreas: [PendingArea] = []
            var landuseAreas: [PendingArea] = []
            var rankedBoundaries: [(area: PendingArea, adminLevel: Int, subdivision: String?)] = []
        }

        private enum Record: UInt32 {
            case locality, townNode, suburbNode, placeArea, boundary, landuseArea
        }

        private let file: OSMSpillFile
        private let shapes: OSMShapeFile
        /// The layers' names, written as their index: read back, each place's name of its layer would be a string
        /// of its own.
        private var layers: [String] = []

        /// `path`: where the file is created; `shapes`: the file holding the areas' outlines.
        init(path: String, shapes: OSMShapeFile) throws {
            file = try OSMSpillFile(path: path)
            self.shapes = shapes
        }

        /// A locality of `place=type`, with the reach of Nominatim's search for such a node (`ExtractPlaces`).
        /// The kind's reach, a capital's too: it decides only where the embedded data's places give way, which is
        /// travel411's rule, not an answer of Nominatim's; a capital's 0.16° (Vaduz) dropped Sargans, 8 km from Swiss
        /// points, from their description.
        mutating func addLocality(_ name: String, type: String, _ population: Double, at coordinate: Coordinate) throws {
            let rank = NominatimAddressLevels.embedded?.placeRanks(type: type, countryCode: nil)?.search ?? 19
            try file.append { writer in
                writer.write(Record.locality.rawValue)
                writer.write(name)
                writer.write(population)
                writer.write(NominatimPlaceKinds.reversePlaceDiameter(searchRank: rank))
                writer.write(coordinate.latitude)
                writer.write(coordinate.longitude)
            }
        }

        /// A town node (`isTown`) or a suburb node.
        mutating func addNode(_ node: OSMPlaceNodeAreas.Node, isTown: Bool) throws {
            let layer = index(of: node.layer)
            try file.append { writer in
                writer.write((isTown ? Record.townNode : .suburbNode).rawValue)
                for text in [node.name, node.type] { writer.write(text) }
                writer.write(node.point)
                writer.write(layer)
                writer.write(node.fid)
                writer.write(UInt32(node.isCapital ? 1 : 0))
                writer.write(node.weight)
                writer.write(node.postcode)
            }
        }

        /// A place area of the city band (`isCity`), of the suburb band (`isSuburb`), or both.
        mutating func addPlaceArea(_ area: PendingArea, isCity: Bool, isSuburb: Bool) throws {
            let layer = index(of: area.layer)
            try file.append { writer in
                writer.write(Record.placeArea.rawValue)
                writer.write(UInt32((isCity ? 1 : 0) | (isSuburb ? 2 : 0)))
                area.write(to: &writer, layer: layer)
            }
        }

        /// A named landuse area of an address rank (`OSMLevelMapping.collectLanduseArea`).
        mutating func addLanduseArea(_ area: PendingArea) throws {
            let layer = index(of: area.layer)
            try file.append { writer in
                writer.write(Record.landuseArea.rawValue)
                area.write(to: &writer, layer: layer)
            }
        }

        mutating func addBoundary(_ area: PendingArea, adminLevel: Int, subdivision: String?) throws {
            let layer = index(of: area.layer)
            try file.append { writer in
                writer.write(Record.boundary.rawValue)
                writer.write(Int64(adminLevel))
                writer.write(subdivision)
                area.write(to: &writer, layer: layer)
            }
        }

        /// Every list, in the order its items came; the file is removed.
        func readBack() throws -> Lists {
            var lists = Lists()
            try file.drain { reader in
                guard let record = Record(rawValue: try reader.uint32()) else {
                    throw ImportError("a place of unknown kind in a temporary file")
                }
                switch record {
                case .locality:
                    let name = try reader.presentText(), population = try reader.double(), reach = try reader.double()
                    lists.localities.append(
                        (name, population, reach, Coordinate(latitude: try reader.double(), longitude: try reader.double())))
                case .townNode, .suburbNode:
                    let node = try Self.node(&reader, layers: layers)
                    if record == .townNode { lists.townNodes.append(node) } else { lists.suburbNodes.append(node) }
                case .placeArea:
                    let bands = try reader.uint32()
                    let area = try PendingArea(reading: &reader, shapes: shapes, layers: layers)
                    if bands & 1 != 0 { lists.cityPlaceAreas.append(area) }
                    if bands & 2 != 0 { lists.suburbPlaceAreas.append(area) }
                case .landuseArea:
                    lists.landuseAreas.append(try PendingArea(reading: &reader, shapes: shapes, layers: layers))
                case .boundary:
                    let adminLevel = Int(try reader.int64()), subdivision = try reader.text()
                    lists.rankedBoundaries.append(
                        (try PendingArea(reading: &reader, shapes: shapes, layers: layers), adminLevel, subdivision))
                }
            }
            return lists
        }

        private static func node(_ reader: inout OSMSpillReader, layers: [String]) throws -> OSMPlaceNodeAreas.Node {
            let name = try reader.presentText(), type = try reader.presentText(), point = try reader.point()
            let layer = Int(try reader.uint32())
            guard layers.indices.contains(layer) else { throw ImportError("a place's layer missing from a temporary file") }
            var node = OSMPlaceNodeAreas.Node(
                name: name, type: type, point: point, layer: layers[layer], fid: try reader.int64(), isCapital: try reader.uint32() != 0)
            node.weight = try reader.double()
            node.postcode = try reader.text()
            return node
        }

        private mutating func index(of layer: String) -> UInt32 {
            if let known = layers.lastIndex(of: layer) { return UInt32(known) }
            layers.append(layer)
            return UInt32(layers.count - 1)
        }
    }
}
