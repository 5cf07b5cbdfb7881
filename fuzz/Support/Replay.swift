import Foundation

/// The entry point of every harness: `@main enum X { static func main() { fuzzMain(fuzzOne) } }`.
///
/// Built by fuzz/run.sh (`-D FUZZING`, `-sanitize=fuzzer,address`), it hands `body` to libFuzzer's driver (libFuzzer's
/// own `main` stays out: SwiftPM names every executable's entry point itself). Built plainly, it runs `body` once on
/// each file named on the command line: how a finding is reproduced.
public func fuzzMain(_ body: @escaping ([UInt8]) -> Void) -> Never {
    #if FUZZING
        harness = body
        var count = CommandLine.argc
        var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&count, &arguments, LLVMFuzzerTestOneInput))
    #else
        let paths = Array(CommandLine.arguments.dropFirst())
        guard !paths.isEmpty else {
            FileHandle.standardError.write(Data("usage: HARNESS FILE…  (fuzz with fuzz/run.sh HARNESS SECONDS)\n".utf8))
            exit(2)
        }
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
                exit(2)
            }
            body(Array(data))
            print("\(path): ok")
        }
        exit(0)
    #endif
}

/// The input split at its first NUL byte: two fields from one input (a template and its properties).
public func split(_ bytes: [UInt8]) -> (first: [UInt8], rest: [UInt8]) {
    guard let zero = bytes.firstIndex(of: 0) else { return (bytes, []) }
    return (Array(bytes[..<zero]), Array(bytes[(zero + 1)...]))
}

#if FUZZING
    /// The harness libFuzzer calls back into: set once, before the driver starts, and only read after.
    nonisolated(unsafe) private var harness: ([UInt8]) -> Void = { _ in }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    // (libFuzzer's names, spelled as its C API spells them.)
    @_cdecl("LLVMFuzzerTestOneInput")
    public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        harness(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    @_silgen_name("LLVMFuzzerRunDriver")
    private func LLVMFuzzerRunDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt
#endif
