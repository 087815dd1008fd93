// dialect: gmlib
// Maréchal 2020, GMlib v3 manual, §2.5 the scatter / gather pair (p. 15-17), as printed: the
// scatter writes each triangle's barycentre into the temporary field Tmp, the gather sums it over
// each vertex's padded ball and divides by the degree.
// loop: Tri  (GmlCompileKernel(LibIdx, scatter, "scatter", GmlTriangles, 3, VerIdx, GmlReadMode, NULL,
//            TmpIdx, GmlWriteMode, NULL))
// data: Tmp GmlFlt4 Tri write
Tmp = (TriCrd[0] + TriCrd[1] + TriCrd[3]) / 3.;
---
// loop: Ver  (GmlCompileKernel(LibIdx, gather, "gather", GmlVertices, 2, TmpIdx, GmlReadMode, NULL,
//            SolIdx, GmlWriteMode, NULL))
// data: Tmp GmlFlt4 Tri read
// data: VerSol GmlFlt4 Ver write
int i;
float4 NewSol = {0};
for(i=0;i<VerTriDegMax;i++)
    NewSol += VerTriTmp[i];
VerSol = NewSol / VerTriDeg;
