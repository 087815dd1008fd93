// dialect: gmlib
// Maréchal 2020, GMlib v3 manual, §2.4 indirect kernels (p. 11-15), "distance", as printed: a
// transverse kernel, each triangle reading its own barycentre and its three neighbours' (TriBar[4],
// the link of GmlSetNeighbours). The barycentres first, as the manual computes them just before.
// loop: Tri  (the barycentre kernel of §2.4)
// data: Bar GmlFlt4 Tri write
Bar = (TriCrd[0] + TriCrd[1] + TriCrd[3]) / 3.;
---
// loop: Tri  (GmlCompileKernel(LibIdx, distance, "distance", GmlTriangles, 2, BarIdx, GmlReadMode,
//            NgbIdx, DisIdx, GmlWriteMode, NULL))
// data: Bar GmlFlt4 Tri read neighbours
// data: distance GmlFlt Tri write
float d1, d2, d3;
d1 = distance(TriBar[0], TriBar[1]);
d2 = distance(TriBar[0], TriBar[2]);
d3 = distance(TriBar[0], TriBar[3]);
distance = min(d1, d2);
distance = min(distance, d3);
