use super::Settings;
