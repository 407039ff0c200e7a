mod loader;
