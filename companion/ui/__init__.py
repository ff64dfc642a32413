"""Screens and drawing for the 128x64 monochrome OLED."""
