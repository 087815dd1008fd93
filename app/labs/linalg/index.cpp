#include "app/labs/linalg/index.h"

#include "app/widgets/table.h"

#include <imgui.h>

namespace linalg {

void FracIndexPanel::ui(gpu::Context& ctx) {
  if (!ImGui::CollapsingHeader("Index arithmetic (formulas 3.1-3.4)")) return;
  ImGui::TextWrapped(
      "The thesis found the quad of V to multiply as (i + j0) mod N, the modulo emulated in float as "
      "frac(a/b)·b, then its texel by frac and floor again, plus 0.5 \"against rounding\". Set index = frac "
      "(texture layout) to run the banded product that way. The sweep tries every size up to 4096 quads and "
      "2^k - 1, 2^k, 2^k + 1, 3·2^(k-2) up to 2^24 quads, with a 12-diagonal band's offsets, on this GPU.");
  if (ImGui::Button("Sweep sizes")) {
    ctx.wait_idle();
    summary_ = sweep_frac_index(ctx, 4096, 24);
    ran_ = true;
  }
  if (!ran_) return;
  auto& s = summary_;
  ImGui::TextWrapped("%u of %zu sizes name a wrong quad somewhere.", s.sizes_wrong, s.counts.size());
  if (s.first_wrong >= 0)
    ImGui::TextWrapped("First wrong size: N = %lld quads (%lld values).", (long long)s.first_wrong,
                       4 * (long long)s.first_wrong);
  if (s.first_wrong_pow2 >= 0)
    ImGui::TextWrapped("Powers of two are exact up to N = %lld quads; at N = %lld the float indices run out.",
                       (long long)s.first_wrong_pow2 / 2, (long long)s.first_wrong_pow2);
  else
    ImGui::TextWrapped("Every power of two swept is exact.");
  TableData t{"linalg-frac-index",
              "Float indices into a texture: the quads they name wrongly (Bleton 2005, formulas 3.1-3.4)",
              {"quads N", "texture side", "wrong (quad, offset)", "first wrong quad"}};
  for (auto& c : s.counts) {
    if (c.wrong == 0 && (c.quads & (c.quads - 1)) != 0) continue;  // exact sizes: powers of two only
    t.rows.push_back({std::to_string(c.quads), std::to_string(c.side),
                      std::to_string(c.wrong) + " of " + std::to_string(c.checked), std::to_string(c.first_q)});
  }
  table(t);
}

}  // namespace linalg
