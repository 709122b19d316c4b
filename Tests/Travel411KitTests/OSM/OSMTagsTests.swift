import Testing

@testable import Travel411OSM

/// `OSMTags` answers as a dictionary would, whichever way a tag was added: its key mask only skips comparisons.
struct OSMTagsTests {
    @Test func lookupsAgreeWithADictionary() {
        let pairs = [
            ("addr:street", "Städtle"), ("addr:place", "Vaduz"), ("addr:housenumber", "12"), ("name", "Rathaus"),
            ("name:de", "Rathaus"), ("amenity", "townhall"), ("building", "yes"), ("source", "survey"),
        ]
        var tags = OSMTags()
        var dictionary: [String: String] = [:]
        for (key, value) in pairs {
            tags[key] = value
            dictionary[key] = value
        }
        // The reader's way: keys of its list with their roles and bits taken from the tables.
        var read = OSMTags()
        for (key, value) in pairs {
            if let index = OSMFeatureClassifier.keysRead.firstIndex(of: key) {
                read.add(
                    key, value, role: OSMFeatureClassifier.keysReadRoles[index], keyBit: OSMFeatureClassifier.keysReadBits[index])
            } else {
                read[key] = value
            }
        }
        for key in OSMFeatureClassifier.keysRead + ["source", "name:de", "name:fr", "", "addr:postcod"] {
            #expect(tags[key] == dictionary[key], "\(key)")
            #expect(read[key] == dictionary[key], "\(key)")
        }
        #expect(OSMNameTags.displayName(read) == "Rathaus" && OSMNameTags.hasName(read))
        #expect(OSMFeatureClassifier.names(read) == ["de": "Rathaus"])
        #expect(OSMFeatureClassifier.pointOfInterest(read, named: true, isNode: true)?.value == "townhall")
    }

    @Test func aKeyGivenTwiceKeepsItsLastValueAndARemovedKeyIsGone() {
        var tags: OSMTags = ["name": "A", "ref": "1"]
        tags["name"] = "B"
        tags.add("ref", "2", role: OSMFeatureClassifier.role(of: "ref"), keyBit: OSMTags.keyBit("ref"))
        #expect(tags.count == 2 && tags["name"] == "B" && tags["ref"] == "2")
        tags["name"] = nil
        #expect(tags["name"] == nil && tags.count == 1 && OSMNameTags.displayName(tags) == "2" && !OSMNameTags.hasName(tags))
        #expect(OSMFeatureClassifier.role(of: "name:de") == [.mainName, .translation])
        #expect(OSMFeatureClassifier.role(of: "ref") == .extraName && OSMFeatureClassifier.role(of: "shop") == .pointOfInterest)
    }
}
