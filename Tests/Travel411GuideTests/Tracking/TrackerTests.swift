import XCTest

@testable import Travel411Core
@testable import Travel411Guide
@testable import Travel411Shapefile
@testable import Travel411Store

final class TrackerTests: XCTestCase {
    private let london = TrackDestination(name: "London", city: BookLondon.city)

    private func run(
        _ fixes: [Fix], rules: TrackingRules = TrackingRules(), regions: [MonitoredRegion] = [],
        clock: TrackClock = .track
    ) -> (events: [TrackEvent], summary: TrackSummary) {
        var tracker = Tracker(rules: rules, destination: london, regions: regions, clock: clock)
        var events: [TrackEvent] = []
        for fix in fixes { events += tracker.process(fix) }
        return (events, tracker.summary)
    }

    /// The RMC positions and times of a log, read here with plain string splitting, independently of
    /// `NMEADecoder`.
    private func independentRMCFixes(_ path: String) throws -> [(time: Date, latitude: Double, longitude: Double)] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var fixes: [(Date, Double, Double)] = []
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("$GPRMC") {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "ddMMyyHHmmss"
            guard let date = formatter.date(from: f[9] + f[1]) else { continue }
            let lat = Double(f[3].prefix(2))! + Double(f[3].dropFirst(2))! / 60
            let lon = Double(f[5].prefix(3))! + Double(f[5].dropFirst(3))! / 60
            fixes.append((date, f[4] == "S" ? -lat : lat, f[6] == "W" ? -lon : lon))
        }
        return fixes
    }

    /// Vincenty-free, haversine-free: the spherical law of cosines in its own words, on the same radius.
    private func independentDistance(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
        let r = 6_371_008.8, rad = Double.pi / 180
        let x = (b.1 - a.1) * rad * cos((a.0 + b.0) / 2 * rad)
        let y = (b.0 - a.0) * rad
        return (x * x + y * y).squareRoot() * r  // equirectangular: within 0.01 % at these spacings
    }

    func testRenoDriveWithA500MetreFilterMatchesAnIndependentCount() throws {
        let fixes = try TrackFixtures.read("nmea/dotMorten-NmeaParser/NmeaSampleData.txt").items.fixes
        let (events, summary) = run(fixes, rules: TrackingRules(distanceFilter: 500))

        let raw = try independentRMCFixes(TrackFixtures.reno)
        XCTAssertEqual(raw.count, 4469)
        var expectedEvents = 0
        var last: (Double, Double)?
        var travelled = 0.0
        var previous: (Double, Double)?
        for fix in raw {
            let point = (fix.latitude, fix.longitude)
            if let previous { travelled += independentDistance(previous, point) }
            previous = point
            if last == nil || independentDistance(last!, point) >= 500 {
                expectedEvents += 1
                last = point
            }
        }
        XCTAssertEqual(summary.fixesRead, 4469)
        XCTAssertEqual(summary.fixesAccepted, 4469)
        XCTAssertEqual(summary.skipped(.stale) + summary.skipped(.outOfOrder), 0)
        XCTAssertEqual(events.count, expectedEvents)
        XCTAssertEqual(summary.fixesUsed, expectedEvents)
        XCTAssertEqual(summary.distanceMetres, travelled, accuracy: travelled * 0.001)
        // Plausible: three hours of driving at about 45 knots, less the 20-minute stop, is 120–150 km,
        // so a 500 m filter leaves a couple of hundred events.
        XCTAssertTrue((120_000...150_000).contains(summary.distanceMetres), "\(summary.distanceMetres)")
        XCTAssertTrue((200...300).contains(events.count), "\(events.count)")
        XCTAssertEqual(summary.spanSeconds, 3 * 3600 + 3 * 60 + 58)
        XCTAssertEqual(events.first?.reason, "first fix")
        XCTAssertEqual(events.first?.sentence, "You are now 8336 km from London")
        // Consecutive events are at least the filter apart.
        for (a, b) in zip(events, events.dropFirst()) {
            XCTAssertGreaterThanOrEqual(GreatCircle.distance(from: a.fix.coordinate, to: b.fix.coordinate), 500)
        }
    }

    func testSignificantChangeFiresFarFewerEventsNeverTooCloseInSpaceOrTime() throws {
        let fixes = try TrackFixtures.read("nmea/dotMorten-NmeaParser/NmeaSampleData.txt").items.fixes
        let standard = run(fixes).events
        let significant = run(fixes, rules: TrackingRules(mode: .significantChange)).events
        XCTAssertEqual(standard.count, 4469)
        XCTAssertLessThan(significant.count, standard.count / 50)
        XCTAssertGreaterThan(significant.count, 10)
        for (a, b) in zip(significant, significant.dropFirst()) {
            XCTAssertGreaterThanOrEqual(GreatCircle.distance(from: a.fix.coordinate, to: b.fix.coordinate), 500)
            XCTAssertGreaterThanOrEqual(b.fix.recordedTime.timeIntervalSince(a.fix.recordedTime), 300)
        }
    }

    private func fix(_ seconds: Double, _ lat: Double = 51.5, _ lon: Double = -0.12, accuracy: Double? = nil) -> Fix {
        Fix(
            time: Date(timeIntervalSince1970: 1_700_000_000 + seconds), coordinate: Coordinate(latitude: lat, longitude: lon),
            horizontalAccuracy: accuracy)
    }

    func testStaleOutOfOrderAndInaccurateFixesAreSkippedAndCounted() {
        let fixes = [
            fix(0), fix(30, 51.501), fix(10, 51.502),  // 20 s older than the newest: stale
            fix(25, 51.503),  // 5 s older: out of order, not stale
            fix(30, 51.504),  // same time as the last accepted: out of order
            fix(31, 51.505, accuracy: 150),  // inaccurate for 100m
            fix(32, 51.506, accuracy: 50),
        ]
        let (events, summary) = run(fixes, rules: TrackingRules(desiredAccuracy: .hundredMetres))
        XCTAssertEqual(events.map(\.fix.coordinate.latitude), [51.5, 51.501, 51.506])
        XCTAssertEqual(summary.skipped(.stale), 1)
        XCTAssertEqual(summary.skipped(.outOfOrder), 2)
        XCTAssertEqual(summary.skipped(.inaccurate), 1)
        XCTAssertEqual(summary.fixesRead, 7)
    }

    func testLiveClockJudgesAgeAgainstTheWallClock() {
        let now = Date(timeIntervalSince1970: 1_700_000_100)
        let (events, summary) = run([fix(0), fix(90), fix(95)], clock: .wall { now })
        XCTAssertEqual(events.count, 2)
        XCTAssertEqual(summary.skipped(.stale), 1)
    }

    func testATrackStartingInsideGivesOnlyTheExit() {
        let home = MonitoredRegion(
            name: "home", center: Coordinate(latitude: 51.5, longitude: -0.12), radiusMetres: 100,
            message: "Don't forget your phone, tickets and passport")
        // 1 m/s due north for 5 minutes, fixes every second, 5 m accuracy.
        let fixes = (0..<300).map { fix(Double($0), 51.5 + Double($0) / 111_195, -0.12, accuracy: 5) }
        let events = run(fixes, rules: TrackingRules(distanceFilter: 1000), regions: [home]).events
        XCTAssertEqual(events.map(\.kind), [.location, .exit])
        let exit = events[1]
        XCTAssertEqual(exit.message, "Don't forget your phone, tickets and passport")
        XCTAssertEqual(exit.region?.name, "home")
        // The median of the last 10 s of fixes (4.5 s behind) passes 105 m (100 + 5 accuracy) at 110 s; the
        // exit is reported after 10 s more on that side.
        XCTAssertEqual(exit.fix.recordedTime.timeIntervalSince(fixes[0].recordedTime), 120, accuracy: 1)
    }

    /// A walk along a real London route from Data/ (the East-West Cycle Superhighway on Victoria
    /// Embankment, 1.7 km) at 1.4 m/s with a fix a second, through a 100 m region at its middle: with
    /// 30 m of Gaussian noise on each axis of every fix (and the fix saying ±30 m), every one of 20 seeded
    /// walks enters once and leaves once.
    func testNoisyWalkAlongARealStreetCrossesA100MetreRegionOnceInAndOnceOut() throws {
        let path = try streetGeometry(named: "East-West Cycle Superhighway")
        let walk = Self.resample(path, every: 1.4)
        XCTAssertGreaterThan(walk.count, 1000)
        let centre = walk[walk.count / 2]
        let region = MonitoredRegion(name: "Temple", center: centre, radiusMetres: 100)
        for seed in 1...20 {
            var random = SeededRandom(seed: UInt64(seed))
            let fixes = walk.enumerated().map { index, point -> Fix in
                let north = random.gaussian() * 30, east = random.gaussian() * 30
                let moved = GreatCircle.destination(
                    from: GreatCircle.destination(from: point, distance: north, bearing: 0), distance: east, bearing: 90)
                return fix(Double(index), moved.latitude, moved.longitude, accuracy: 30)
            }
            let events = run(fixes, rules: TrackingRules(distanceFilter: 10_000), regions: [region]).events.filter { $0.kind != .location }
            XCTAssertEqual(events.map(\.kind), [.enter, .exit], "seed \(seed)")
            // Each fires near where the walk really crosses: the true position is within 100 m ± 60 m.
            for event in events {
                let index = Int(event.fix.recordedTime.timeIntervalSince1970 - 1_700_000_000)
                let trueDistance = GreatCircle.distance(from: centre, to: walk[index])
                XCTAssertTrue((20...170).contains(trueDistance), "seed \(seed): \(event.kind) at \(trueDistance) m")
            }
        }
    }

    func testNoisyTrackLingeringOnTheBoundaryDoesNotFlap() {
        let centre = Coordinate(latitude: 51.5, longitude: -0.12)
        let region = MonitoredRegion(name: "gate", center: centre, radiusMetres: 100)
        var random = SeededRandom(seed: 7)
        // Ten minutes standing 70 m from the centre, then ten at exactly 100 m, with 10 m noise and ±10 m accuracy.
        let fixes = (0..<1200).map { second -> Fix in
            let spot = GreatCircle.destination(from: centre, distance: second < 600 ? 70 : 100, bearing: 45)
            let noisy = GreatCircle.destination(from: spot, distance: abs(random.gaussian() * 10), bearing: random.uniform() * 360)
            return fix(Double(second), noisy.latitude, noisy.longitude, accuracy: 10)
        }
        let crossings = run(fixes, rules: TrackingRules(distanceFilter: 10_000), regions: [region]).events.filter { $0.kind != .location }
        XCTAssertLessThanOrEqual(crossings.count, 1, "\(crossings.map { "\($0.kind) at \($0.fix.time)" })")
    }

    // MARK: Helpers

    private func streetGeometry(named name: String) throws -> [Coordinate] {
        let shp = try EmbeddedData.locate().appendingPathComponent("thoroughfares/london_osmplotr_highways.shp").path
        let reader = try ShapefileReader(path: shp)
        guard let nameField = reader.fieldIndex("name") else { throw XCTSkip("no name field") }
        for index in 0..<reader.recordCount where reader.string(record: index, field: nameField) == name {
            if case .shape(.lineString(let points)) = try reader.record(at: index) {
                return points.map { Coordinate(latitude: $0.y, longitude: $0.x) }
            }
            if case .shape(.multiLineString(let lines)) = try reader.record(at: index), let first = lines.first {
                return first.map { Coordinate(latitude: $0.y, longitude: $0.x) }
            }
        }
        throw XCTSkip("\(name) is not in the London highways layer")
    }

    /// Points every `step` metres along a polyline.
    static func resample(_ path: [Coordinate], every step: Double) -> [Coordinate] {
        var points = [path[0]]
        var carried = 0.0
        for (a, b) in zip(path, path.dropFirst()) {
            let length = GreatCircle.distance(from: a, to: b)
            let bearing = GreatCircle.initialBearing(from: a, to: b)
            var along = step - carried
            while along <= length {
                points.append(GreatCircle.destination(from: a, distance: along, bearing: bearing))
                along += step
            }
            carried = length - (along - step)
        }
        return points
    }
}

/// SplitMix64 with Box–Muller, so the noisy walks are the same on every machine and run.
struct SeededRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }

    mutating func gaussian() -> Double {
        let u1 = max(uniform(), .leastNonzeroMagnitude), u2 = uniform()
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }
}
