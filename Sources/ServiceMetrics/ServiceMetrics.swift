import Prometheus

/// The counters and latencies `pushline serve` exposes at `/metrics`, in Prometheus' text format: the one place
/// that imports a Prometheus client.
package final class ServiceMetrics: Sendable {
    private let registry = PrometheusCollectorRegistry()

    /// The content type of `exposition()` (Prometheus text format 0.0.4).
    package static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// Empty metrics.
    package init() {}

    /// One answered request: counted by route template and status, timed by route.
    package func request(route: String, status: Int, duration: Duration) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "pushline", subsystem: "http", metricName: "requests", unitName: "total",
                helpText: "Requests answered, by route template and status"),
            labels: [("route", route), ("status", String(status))]
        ).increment()
        registry.makeDurationHistogram(
            descriptor: MetricNameDescriptor(
                namespace: "pushline", subsystem: "http", metricName: "request_duration",
                unitName: "seconds", helpText: "Time to answer a request, by route template"),
            labels: [("route", route)],
            buckets: [
                .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
                .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
            ]
        ).record(duration)
    }

    /// One request to the hub: `outcome` is the status class (`2xx`, `4xx`, …), `throttled` or `no-answer`.
    package func hubRequest(outcome: String) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "pushline", subsystem: "hub", metricName: "requests", unitName: "total",
                helpText: "Requests to the notification hub, by outcome"),
            labels: [("outcome", outcome)]
        ).increment()
    }

    /// Every metric in the text exposition format.
    package func exposition() -> String {
        registry.emitToString()
    }
}
