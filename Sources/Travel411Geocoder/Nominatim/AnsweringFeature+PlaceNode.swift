import Travel411Core

extension AnsweringFeature {
    /// An extract's `place=*` node as an answer or an address part: Nominatim's extent for a node of its kind
    /// (`NominatimPlaceKinds.nodeExtent`) around its point.
    static func placeNode(
        elementID: Int64, name: String, type: String, rank: Int, x: Double, y: Double, postcode: String? = nil, addressKey: String
    ) -> AnsweringFeature {
        let centre = Coordinate(latitude: y, longitude: x)
        return AnsweringFeature(
            elementType: .node, elementID: elementID, category: "place", type: type, name: name, rank: rank, location: centre,
            extent: NominatimPlaceKinds.nodeExtent(category: "place", type: type).map { BoundingBox(around: centre, degrees: $0) },
            postcode: postcode, addressKey: addressKey)
    }
}
