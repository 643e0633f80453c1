import NavlogHost
import NavlogRuntime

extension AppCatalog {
    /// The seed apps' names and parameters without their code (their roots throw), for the
    /// tests that check `navlogd` configurations without linking NavlogSampleApps.
    public static let sampleSignatures = try! AppCatalog([
        AppDefinition(name: "master-detail", summary: "", parameters: [.choice("detail_style", ["push", "modal"], default: "push", summary: "")]) { _, _ in throw CancellationError() },
        AppDefinition(name: "articles", summary: "", parameters: [
            .integer("latency_ms", in: 0...60_000, default: 300, summary: ""), .number("failure_rate", in: 0...1, default: 0, summary: ""),
        ]) { _, _ in throw CancellationError() },
        AppDefinition(name: "tabs", summary: "", parameters: [.choice("start_tab", ["dashboard", "settings"], default: "dashboard", summary: "")]) { _, _ in throw CancellationError() },
        AppDefinition(name: "content-list", summary: "", parameters: [.choice("dataset", ["full", "empty"], default: "full", summary: "")]) { _, _ in throw CancellationError() },
    ])
}
