// dialect: gmlib
// Maréchal 2020, GMlib v3 manual (Une aide à la programmation sur GPU pour le calcul scientifique :
// la librairie GMlib), §2.1 API (p. 5-8) and §2.3 direct kernels (p. 11): "iteration.cl", each
// vertex moved by its speed (Vitesse) along its direction, as printed. The first section is ours:
// the manual fills Vitesse and Direction on the host with rand(); here a hash of the index does,
// written with OpenCL's spellings (get_global_id, casts, float4) that the aliases read.
// loop: Ver
// data: Vitesse GmlFlt Ver write
// data: Direction GmlFlt4 Ver write
uint h = get_global_id(0) * 2654435761u;
VerVitesse = 0.002f * (float)(h >> 16) / 65536.0f;
VerDirection = (float4)(normalize((float3)((float)(h & 255u), (float)((h >> 8) & 255u), (float)(h >> 24)) - 127.5f), 0.0f);
---
// loop: Ver  (GmlCompileKernel(LibIdx, iteration, "iteration", GmlVertices, 3, VerIdx, GmlReadMode |
//            GmlWriteMode, NULL, VitIdx, GmlReadMode, NULL, DirIdx, GmlReadMode, NULL))
// data: Vitesse GmlFlt Ver read
// data: Direction GmlFlt4 Ver read
VerCrd = VerCrd + VerVitesse * VerDirection;
