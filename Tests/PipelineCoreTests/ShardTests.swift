import PipelineCore
import RunStore
import Testing

@Suite("Shard: --shard I/N and its stable hash")
struct ShardTests {
    @Test("I/N reads only 0 ≤ I < N ≤ 1024")
    func parsing() {
        #expect(Shard("2/4") == Shard(index: 2, count: 4))
        #expect(Shard("0/1")?.description == "0/1")
        for bad in ["4/4", "-1/4", "1/0", "1/1025", "a/b", "1", "1/2/3", "+1/2", "", "/2", "1/"] {
            #expect(Shard(bad) == nil, "\(bad)")
        }
    }

    @Test("the hash is 64-bit FNV-1a: the same on every machine and in every version")
    func stableHash() {
        // Published FNV-1a 64 test values.
        #expect(Shard.hash("") == 0xcbf2_9ce4_8422_2325)
        #expect(Shard.hash("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(Shard.hash("foobar") == 0x8594_4171_f739_67e8)
        // Every key belongs to exactly one part.
        for key in ["u-1", "u-2", "Zürich", ""] {
            #expect((0..<7).filter { Shard(index: $0, count: 7)!.owns(key) }.count == 1)
        }
    }
}
