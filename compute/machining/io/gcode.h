// G-code as a milling user has it: the RS274NGC dialect of LinuxCNC that CAM programs
// write (dxf2gcode, slic3r...), read into the tool tip's positions (path.h).
//
// Moves: G0, G1 (with our 5-axis extension: the tool axis as I J K or as A B in degrees,
// rotations about x then y of +z), G2/G3 arcs in the plane of G17 (XY, centre I J), G18
// (ZX, K I) or G19 (YZ, J K), with helical motion along the third axis, full circles, P
// turns, the centre relative to the start (G91.1, the default) or absolute (G90.1), or a
// radius R (negative: the longer arc); G28 (G30) to the home that G28.1 (G30.1) set, else
// X0 Y0 Z0 as LinuxCNC's parameters default — with axis words, through their point and then
// only those axes home.
// Modes: G20/G21 (inches are read as 25.4 mm), G90/G91, G17/G18/G19, G80. Line numbers,
// '/' block deletes (read as if the switch were off), ( ) and ';' comments, blanks anywhere
// ("X1 0" is X10), a program between two '%' lines. An axis no move has named yet is at 0
// (the machine's position, which the file does not say).
// Words that do not move the tool (F, S, T, M0-M9 and other M codes, G4, G40, G49, G54,
// G61, G61.1, G64, G93, G94, P/Q of G4 and G64) are accepted and listed once as ignored;
// M2 and M30 end the program. What changes the geometry and is not simulated (G41/G42
// cutter compensation, G43 length offsets, canned cycles G73-G89, G92 offsets, G55-G59
// work offsets, O-word subroutines, ...) is refused with one line naming it.
// Errors: std::runtime_error "FILE:LINE: problem".
#pragma once
#include "compute/machining/io/path.h"

namespace machining {

// What a program held, for the panel.
struct GcodeSummary {
  size_t lines = 0, moves = 0, arcs = 0;  // blocks that moved the tool in a straight line, on an arc
  double length = 0, rapid = 0;           // of the tip's path, mm: G1/G2/G3, and G0/G28/G30
  glm::dvec3 lo{0.0}, hi{0.0};            // the tip's bounding box, mm
  bool inches = false;                    // G20 met
  std::vector<std::string> ignored;       // "F", "S", "M3", "G64"..., in order of first use
};
struct Gcode {
  std::vector<Position> positions;  // every `step` mm along the moves
  GcodeSummary summary;
};
// "81 lines: 28 moves, 16 arcs, 583.19 mm cutting and 127.99 mm rapid (G0, G28), within (0.00, 0.00,
// -3.00) .. (60.00, 40.00, 15.00) mm; ignored: G64, G40, ..."
std::string describe(const GcodeSummary& s);
// The names CAM programs give G-code: .nc, .ngc, .gcode, .tap, in any case.
bool is_gcode_file(const std::filesystem::path& path);
Gcode read_gcode(const std::filesystem::path& path, float step);
Gcode parse_gcode(const std::string& data, const std::string& name, float step);

}  // namespace machining
