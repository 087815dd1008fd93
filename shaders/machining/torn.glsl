// SIMSURF §7.3.2 (Abecassis 2012): what each writer of the race writes (compute/machining/torn.h).
// Writer w (w < 2^20) writes the double whose high half is 0x40000000 | w (a number in [2, 4))
// and whose low half is w · 2654435761 (odd: a different low half for each writer). A 64-bit
// value whose low half is not its high half's writer's is one no writer wrote: torn.
const uint kTornMix = 2654435761u;
uint torn_high(uint w) { return 0x40000000u | w; }
uint torn_low(uint w) { return w * kTornMix; }
bool torn_value(uint low, uint high) { return low != torn_low(high & 0xFFFFFu); }
