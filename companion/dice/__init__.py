"""The electronic dice: wire protocol, serial reader, simulated dice."""
