mod config;
mod net;
#[path = "platform/linux.rs"]
mod sys;
mod missing;
fn main() {}
