"""The table service: event loop, controller, screens, journal, configuration."""
