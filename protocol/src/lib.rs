//! The engine's line protocol (specified in `PROTOCOL.md`).
