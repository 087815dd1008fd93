// dialect: gmlib
// Maréchal 2020, GMlib v3 manual, §2.4 indirect kernels (p. 11-15), "smoothing", as printed: an
// upward kernel, each vertex summing the barycentres of its ball over the padded size VerTriDegMax
// and dividing by its degree VerTriDeg. The barycentres first, as the manual computes them before.
// loop: Tri  (the barycentre kernel of §2.4)
// data: Bar GmlFlt4 Tri write
Bar = (TriCrd[0] + TriCrd[1] + TriCrd[3]) / 3.;
---
// loop: Ver  (GmlCompileKernel(LibIdx, smoothing, "smoothing", GmlVertices, 2, BarIdx, GmlReadMode,
//            NULL, CrdIdx, GmlWriteMode, NULL), CrdIdx the solution "relaxed")
// data: Bar GmlFlt4 Tri read
// data: relaxed GmlFlt4 Ver write
int i;
float4 NewCrd = {0};
for(i=0;i<VerTriDegMax;i++)
    NewCrd += VerTriBar[i];
relaxed = 0.8 * relaxed + 0.2 * NewCrd / VerTriDeg;
