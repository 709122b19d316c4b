import Travel411Core

/// travel411 stores WGS 84 longitude/latitude: shapefiles in anything else must be reprojected first.
enum CoordinateSystemRequirement {
    /// Fails for a .prj that names another coordinate system; a missing or unreadable .prj only warns,
    /// leaving `checkDegrees` to catch coordinates that are not degrees.
    static func check(prjPath: String?, shpPath: String, warnings: inout [String]) throws {
        guard let prjPath else {
            warnings.append("\(shpPath) has no .prj; assuming WGS 84 longitude/latitude (EPSG:4326)")
            return
        }
        let file = try MappedFile(path: prjPath)
        let text = String(decoding: file.octets.prefix(65_536), as: UTF8.self)
        switch CoordinateSystemCheck.assess(text) {
        case .wgs84:
            return
        case .unreadable:
            warnings.append(
                "\(prjPath) is not a coordinate system description that can be read; assuming WGS 84 longitude/latitude (EPSG:4326)")
        case .other(let name):
            throw ShapefileError.at(prjPath, "is in \(name), not WGS 84 (EPSG:4326); reproject it first, e.g. \(reprojectCommand(shpPath))")
        }
    }

    /// Fails when the header's bounding box cannot be longitude/latitude degrees.
    static func checkDegrees(_ box: BoundingBox, shpPath: String, warnings: inout [String]) throws {
        let values = [box.minX, box.minY, box.maxX, box.maxY]
        guard values.allSatisfy(\.isFinite) else {
            warnings.append("\(shpPath) has no valid bounding box in its header; coordinates are checked record by record")
            return
        }
        let tolerance = ShapeRecordBuilder.degreeTolerance
        let longitudes = (-180 - tolerance)...(180 + tolerance)
        let latitudes = (-90 - tolerance)...(90 + tolerance)
        guard longitudes.contains(box.minX), longitudes.contains(box.maxX),
            latitudes.contains(box.minY), latitudes.contains(box.maxY)
        else {
            throw ShapefileError.at(
                shpPath,
                "has coordinates from (\(box.minX), \(box.minY)) to (\(box.maxX), \(box.maxY)), which are not longitude/latitude degrees; reproject it to WGS 84 (EPSG:4326) first, e.g. \(reprojectCommand(shpPath))"
            )
        }
    }

    private static func reprojectCommand(_ shpPath: String) -> String {
        let name = shpPath.split(separator: "/").last.map(String.init) ?? shpPath
        let stem = name.count > 4 ? String(name.dropLast(4)) : name
        return "`ogr2ogr -t_srs EPSG:4326 \(stem)_wgs84.shp \(name)`"
    }
}
