// field: Temp double Ver
// loop: Hex
HexVol.x = 1e-3 * float(HexRef);
