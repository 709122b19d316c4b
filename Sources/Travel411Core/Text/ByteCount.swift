/// "1 byte", "5 bytes".
package func byteCount(_ count: Int) -> String { count == 1 ? "1 byte" : "\(count) bytes" }
