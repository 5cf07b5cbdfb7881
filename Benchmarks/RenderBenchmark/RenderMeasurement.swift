/// Times a workload in rounds and keeps each round's rate.
struct RenderMeasurement {
    /// Renders per second of each round.
    let rates: [Double]

    /// The median round's rate.
    var median: Double {
        let sorted = rates.sorted()
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// Calibrates a batch size that takes about a tenth of `seconds`, warms up, then runs `rounds` rounds
    /// of about `seconds` each.
    static func measure(_ workload: RenderWorkload, rounds: Int, seconds: Double) -> RenderMeasurement {
        let clock = ContinuousClock()
        var batch = 1000
        while true {
            let elapsed = clock.measure { sink(workload.run(batch)) }
            if elapsed.seconds >= seconds / 10 || batch >= 1 << 30 { break }
            batch *= 4
        }
        var rates: [Double] = []
        for _ in 0..<rounds {
            var renders = 0
            let start = clock.now
            while (clock.now - start).seconds < seconds {
                sink(workload.run(batch))
                renders += batch
            }
            rates.append(Double(renders) / (clock.now - start).seconds)
        }
        return RenderMeasurement(rates: rates)
    }

    /// Keeps a result alive so the optimiser cannot drop the rendering.
    @inline(never)
    static func sink(_ value: Int) {
        if value == -1 { print(value) }
    }
}

extension Duration {
    /// The duration in seconds, as a Double.
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
