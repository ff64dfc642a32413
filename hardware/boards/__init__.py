"""The companion's electronics as code: each board's circuit, its checks and its outputs."""
