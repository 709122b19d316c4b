import Foundation
import Travel411Core

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where a feed comes from: a file, standard input (`-`), or a USGS feed URL.
public enum QuakeSource: Hashable, Sendable {
    case file(String)
    case standardInput
    case url(URL)

    /// Reads the SOURCE argument. URLs must be https://; plain http:// is accepted only for this
    /// machine (localhost, 127.0.0.1, ::1), where a test or a local mirror serves a feed.
    public init(argument: String) throws {
        if argument == "-" {
            self = .standardInput
            return
        }
        guard let schemeEnd = argument.range(of: "://") else {
            self = .file(argument)
            return
        }
        let scheme = argument[..<schemeEnd.lowerBound].lowercased()
        guard let url = URL(string: argument), let host = url.host, !host.isEmpty else {
            throw QuakeSourceError.badURL(argument)
        }
        switch scheme {
        case "https":
            self = .url(url)
        case "http" where Self.loopbackHosts.contains(host.lowercased()):
            self = .url(url)
        case "http":
            throw QuakeSourceError.plainHTTP(argument)
        default:
            throw QuakeSourceError.unsupportedScheme(argument, scheme: scheme)
        }
    }

    static let loopbackHosts: Set<String> = ["localhost", "127.0.0.1", "::1", "[::1]"]

    /// The name messages use.
    public var displayName: String {
        switch self {
        case .file(let path): return DisplayText.sanitized(path)
        case .standardInput: return "standard input"
        case .url(let url): return DisplayText.sanitized(url.absoluteString)
        }
    }

    /// The feed's bytes. `timeout` bounds a URL fetch: the wait for each response and the whole transfer.
    public func read(timeout: TimeInterval = 60) async throws -> Data {
        switch self {
        case .file(let path):
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw QuakeFeedError.cannotOpen(source: displayName, detail: "no such file")
            }
            if isFolder.boolValue { throw QuakeFeedError.cannotOpen(source: displayName, detail: "it is a folder, not a feed file") }
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw QuakeFeedError.cannotOpen(source: displayName, detail: "permission denied or unreadable")
            }
            defer { try? handle.close() }
            do {
                return try handle.readToEnd() ?? Data()
            } catch {
                throw QuakeFeedError.cannotOpen(source: displayName, detail: error.localizedDescription)
            }
        case .standardInput:
            return (try? FileHandle.standardInput.readToEnd()) ?? Data()
        case .url(let url):
            return try await QuakeFeedFetcher.fetch(url, timeout: timeout)
        }
    }
}

/// A SOURCE argument that names a URL travel411 will not fetch: a usage error.
public enum QuakeSourceError: Travel411Error, Equatable {
    case badURL(String)
    case plainHTTP(String)
    case unsupportedScheme(String, scheme: String)

    public var description: String {
        switch self {
        case .badURL(let text):
            return "'\(DisplayText.sanitized(text))' is not a URL with a host"
        case .plainHTTP(let text):
            return
                "'\(DisplayText.sanitized(text))': feeds are fetched over https:// only (plain http:// is accepted for localhost alone); USGS serves every feed at https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary/"
        case .unsupportedScheme(let text, let scheme):
            return
                "'\(DisplayText.sanitized(text))': \(DisplayText.sanitized(scheme)):// is not fetched; give an https:// URL, a file or - for standard input"
        }
    }

    public var exitStatus: ExitStatus { .usage }
}

/// A URL that could not be fetched: offline, unreachable, or the server failed. Exit 69 (EX_UNAVAILABLE).
public struct QuakeFetchError: Travel411Error, Equatable {
    public var url: String
    public var reason: String
    /// The HTTP status when the server answered, nil when it was never reached.
    public var httpStatus: Int?

    public var description: String { "cannot fetch \(url): \(reason)" }
    public var exitStatus: ExitStatus { .unavailable }
}

/// Fetches a feed with Foundation's URLSession (FoundationNetworking on Linux).
enum QuakeFeedFetcher {
    static func fetch(_ url: URL, timeout: TimeInterval) async throws -> Data {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout * 2
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: url)
        request.setValue("travel411/\(Travel411.version)", forHTTPHeaderField: "User-Agent")
        let shown = DisplayText.sanitized(url.absoluteString)
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw QuakeFetchError(url: shown, reason: explain(error), httpStatus: nil)
        }
        guard let http = response as? HTTPURLResponse else {
            throw QuakeFetchError(url: shown, reason: "the answer is not HTTP", httpStatus: nil)
        }
        guard (200..<300).contains(http.statusCode) else {
            let phrase = HTTPURLResponse.localizedString(forStatusCode: http.statusCode)
            let hint =
                http.statusCode >= 500 ? "; the server failed, try again later" : http.statusCode == 404 ? "; check the feed's address" : ""
            throw QuakeFetchError(
                url: shown, reason: "the server answered HTTP \(http.statusCode) (\(phrase))\(hint)", httpStatus: http.statusCode)
        }
        return data
    }

    /// Says what went wrong in words a traveller can act on.
    static func explain(_ error: any Error) -> String {
        guard let urlError = error as? URLError else { return error.localizedDescription }
        switch urlError.code {
        case .notConnectedToInternet, .networkConnectionLost, .dataNotAllowed, .internationalRoamingOff:
            return "this machine is offline (\(urlError.localizedDescription)); use a feed file saved earlier"
        case .cannotFindHost, .dnsLookupFailed:
            return "the host cannot be found: this machine may be offline, or the name is wrong; use a feed file saved earlier"
        case .cannotConnectToHost:
            return "the server cannot be reached (connection refused or no route); it may be down, or this machine offline"
        case .timedOut:
            return "no answer in time (the network is slow or down)"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return "the secure connection failed (\(urlError.localizedDescription))"
        case .badServerResponse:
            return "the server's answer is broken"
        default:
            return urlError.localizedDescription
        }
    }
}
