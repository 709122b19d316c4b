import XCTest

@testable import Travel411Shapefile

/// Which .prj texts count as WGS 84 longitude/latitude.
final class CoordinateSystemCheckTests: XCTestCase {
    func testWGS84Spellings() {
        let texts = [
            #"GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137,298.257223563]],PRIMEM["Greenwich",0],UNIT["Degree",0.017453292519943295]]"#,
            #"GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AXIS["Latitude",NORTH],AXIS["Longitude",EAST],AUTHORITY["EPSG","4326"]]"#,
            #"GEOGCRS["WGS 84",ENSEMBLE["World Geodetic System 1984 ensemble",MEMBER["World Geodetic System 1984 (Transit)"],ELLIPSOID["WGS 84",6378137,298.257223563,LENGTHUNIT["metre",1]],ENSEMBLEACCURACY[2.0]],PRIMEM["Greenwich",0,ANGLEUNIT["degree",0.0174532925199433]],CS[ellipsoidal,2],AXIS["geodetic latitude (Lat)",north,ORDER[1],ANGLEUNIT["degree",0.0174532925199433]],AXIS["geodetic longitude (Lon)",east,ORDER[2],ANGLEUNIT["degree",0.0174532925199433]],ID["EPSG",4326]]"#,
            #"GEOGCS["unnamed",DATUM["World Geodetic System 1984",SPHEROID["WGS 84",6378137,298.257223563]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]]"#,
            #"COMPD_CS["WGS 84 + EGM96 height",GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]],VERT_CS["EGM96 height",VERT_DATUM["EGM96 geoid",2005],UNIT["metre",1]]]"#,
            "EPSG:4326", " urn:ogc:def:crs:EPSG::4326\n", "+proj=longlat +datum=WGS84 +no_defs",
        ]
        for text in texts {
            XCTAssertEqual(CoordinateSystemCheck.assess(text), .wgs84, text)
        }
    }

    func testOtherSystemsAreNamed() {
        let expectations: [(String, String)] = [
            (
                #"PROJCS["British_National_Grid",GEOGCS["GCS_OSGB_1936",DATUM["D_OSGB_1936",SPHEROID["Airy_1830",6377563.396,299.3249646]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],UNIT["Meter",1.0]]"#,
                "British_National_Grid"
            ),
            (
                #"GEOGCS["GCS_North_American_1927",DATUM["D_North_American_1927",SPHEROID["Clarke_1866",6378206.4,294.9786982]],PRIMEM["Greenwich",0],UNIT["Degree",0.017453292519943295]]"#,
                "GCS_North_American_1927"
            ),
            (
                #"PROJCRS["WGS 84 / UTM zone 33N",BASEGEOGCRS["WGS 84",ENSEMBLE["World Geodetic System 1984 ensemble",ELLIPSOID["WGS 84",6378137,298.257223563]]],CONVERSION["UTM zone 33N",METHOD["Transverse Mercator"]],CS[Cartesian,2],ID["EPSG",32633]]"#,
                "WGS 84 / UTM zone 33N"
            ),
            (
                #"GEOGCS["WGS 84 (Paris)",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],PRIMEM["Paris",2.33722917],UNIT["degree",0.0174532925199433]]"#,
                "WGS 84 (Paris)"
            ),
            ("+proj=utm +zone=30 +datum=WGS84", "+proj=utm +zone=30 +datum=WGS84"),
        ]
        for (text, name) in expectations {
            XCTAssertEqual(CoordinateSystemCheck.assess(text), .other(name: name), text)
        }
    }

    func testTextThatIsNotACoordinateSystemIsUnreadable() {
        for text in ["", "<!DOCTYPE html><html><head></head></html>", "GEOGCS[\"unterminated\"", "4326 and more", "FOO[\"bar\"]"] {
            XCTAssertEqual(CoordinateSystemCheck.assess(text), .unreadable, text)
        }
    }
}
