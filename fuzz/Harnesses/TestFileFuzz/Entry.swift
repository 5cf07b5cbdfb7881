import FuzzSupport

@main
enum Harness {
    static func main() { fuzzMain(fuzzOne) }
}
