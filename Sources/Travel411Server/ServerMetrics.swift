#if Server
    import Prometheus

    public enum ServerMetrics {
        /// Prometheus names allow [a-zA-Z0-9_:] only; Hummingbird's metrics are named with dots
        /// (`http.server.request.duration`). Latency buckets span 50 µs to 5 s: a lookup takes microseconds.
        public static func factory(registry: PrometheusCollectorRegistry) -> PrometheusMetricsFactory {
            var factory = PrometheusMetricsFactory(registry: registry)
            factory.defaultDurationHistogramBuckets = [
                .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2),
                .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(100), .milliseconds(500), .seconds(1), .seconds(5),
            ]
            factory.nameAndLabelSanitizer = { name, labels in
                (sanitized(name), labels.map { (sanitized($0.0), $0.1) })
            }
            return factory
        }

        static func sanitized(_ name: String) -> String {
            String(
                name.unicodeScalars.map { scalar -> Character in
                    switch scalar {
                    case "a"..."z", "A"..."Z", "0"..."9", "_", ":": return Character(scalar)
                    default: return "_"
                    }
                })
        }
    }
#endif
