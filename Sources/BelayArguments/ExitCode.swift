/// Exit codes of `belay`, after BSD's sysexits.
public enum ExitCode {
    public static let success: Int32 = 0
    public static let failure: Int32 = 1
    /// EX_USAGE: the command line was wrong.
    public static let usage: Int32 = 64
}
