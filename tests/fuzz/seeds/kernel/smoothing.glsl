// loop: Tri  (barycentres)
TriBar.xyz = (TriVerCrd[0] + TriVerCrd[1] + TriVerCrd[2]) / 3.0;
---
// loop: Ver
vec3 s = vec3(0.0);
for (uint k = 0u; k < VerTriDeg; ++k) s += VerTriBar[k].xyz;
VerCrd = mix(VerCrd, s / float(VerTriDeg), 0.5); /* half */
