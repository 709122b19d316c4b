public enum Travel411 {
    public static let version = "0.1.0"
}
