// dialect: gmlib
// Maréchal 2020, GMlib v3 manual, §2.4 indirect kernels (p. 11-15), the barycentre, as printed:
// a downward kernel, each triangle reading its three vertices' coordinates (TriCrd).
// loop: Tri  (GmlCompileKernel(LibIdx, barycentre, "barycentre", GmlTriangles, 3, VerIdx, GmlReadMode,
//            NULL, TriIdx, GmlReadMode, NULL, BarIdx, GmlWriteMode, NULL))
// data: Bar GmlFlt4 Tri write
Bar = (TriCrd[0] + TriCrd[1] + TriCrd[3]) / 3.;
