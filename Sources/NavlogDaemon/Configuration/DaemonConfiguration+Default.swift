// Generated from Config/navlogd.json; DefaultConfigurationTests keeps the two identical.

extension DaemonConfiguration {
    /// The documented default configuration, `Config/navlogd.json`, byte for byte.
    public static let defaultText = """
        {
          "journal": {
            "directory": "navlog-journal",
            "flush_interval_ms": 200,
            "durability": "flush_interval",
            "batch_size": 4096,
            "queue_capacity": 65536,
            "overflow": "block",
            "rotate_bytes": 67108864,
            "rotate_age_s": 3600,
            "retention_bytes": null,
            "retention_age_s": null
          },
          "privacy": {
            "mode": "hash",
            "redact": [],
            "key_file": null
          },
          "listen": {
            "unix_socket": "navlogd.sock",
            "tcp": { "host": "127.0.0.1", "port": 7878 }
          },
          "auth": {
            "token": null,
            "token_file": null
          },
          "limits": {
            "max_body_bytes": 65536,
            "max_sessions": 1000,
            "idle_session_timeout_s": 900,
            "request_timeout_s": 30,
            "drain_timeout_s": 10,
            "close_timeout_s": 10,
            "stream_buffer_events": 4096
          },
          "log": {
            "access": false
          },
          "apps": {
            "master-detail": { "enabled": true, "parameters": { "detail_style": "push" } },
            "articles": { "enabled": true, "parameters": { "latency_ms": 300, "failure_rate": 0 } },
            "tabs": { "enabled": true, "parameters": { "start_tab": "dashboard" } },
            "content-list": { "enabled": true, "parameters": { "dataset": "full" } }
          },
          "labels": {
            "service": "navlogd"
          },
          "ingest": {
            "events_per_second": 100000,
            "max_open_sessions": 1000,
            "max_open_sessions_total": 100000,
            "idempotency_window_s": 86400,
            "idempotency_max_bytes": 67108864,
            "max_inflated_bytes": 16777216,
            "max_line_bytes": 1048576
          },
          "otlp": {
            "enabled": false,
            "endpoint": "http://127.0.0.1:4318/v1/traces",
            "headers": {},
            "batch_size": 512,
            "interval_ms": 1000,
            "timeout_ms": 10000,
            "retry_initial_ms": 500,
            "retry_max_ms": 30000,
            "gzip": true,
            "drain_timeout_ms": 5000,
            "ca_file": null
          },
          "ui": {
            "enabled": null,
            "allow_actions": false
          }
        }

        """
}
