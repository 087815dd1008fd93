#include "app/widgets/file_browser.h"
#include "app/widgets/warning_text.h"

#include <imgui.h>

#include <algorithm>
#include <cctype>

namespace fs = std::filesystem;

namespace {
fs::path g_folder;  // the open chooser's folder (one chooser is open at a time)

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}
}  // namespace

FolderListing list_folder(const fs::path& folder, const std::vector<std::string>& types) {
  FolderListing l;
  std::error_code ec;
  fs::directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec);
  if (ec) {
    l.error = folder.string() + ": " + ec.message();
    return l;
  }
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) break;
    std::string name = it->path().filename().string();
    if (it->is_directory(ec)) {
      l.folders.push_back(name);
    } else if (types.empty() || types[0] == "*" ||
               std::find(types.begin(), types.end(), lower(it->path().extension().string())) != types.end()) {
      l.files.push_back(name);
    }
  }
  std::sort(l.folders.begin(), l.folders.end());
  std::sort(l.files.begin(), l.files.end());
  if (folder.has_parent_path() && folder.parent_path() != folder) l.folders.insert(l.folders.begin(), "..");
  return l;
}

void open_file_browser(const char* id, const std::string& current) {
  std::error_code ec;
  fs::path start = current.empty() ? fs::current_path(ec) : fs::absolute(current, ec).parent_path();
  g_folder = fs::is_directory(start, ec) ? start : fs::current_path(ec);
  ImGui::OpenPopup(id);
}

bool file_browser(const char* id, const std::vector<std::string>& types, std::string& path) {
  bool chosen = false;
  ImGui::SetNextWindowSize({520, 420}, ImGuiCond_Appearing);
  if (!ImGui::BeginPopupModal(id)) return false;
  ImGui::TextWrapped("%s", g_folder.string().c_str());
  FolderListing l = list_folder(g_folder, types);
  if (!l.error.empty()) warning_text({1, 0.4f, 0.4f, 1}, "%s", l.error.c_str());
  ImGui::BeginChild("entries", {0, -ImGui::GetFrameHeightWithSpacing()}, true);
  for (auto& f : l.folders)
    if (ImGui::Selectable((f + "/").c_str())) g_folder = f == ".." ? g_folder.parent_path() : g_folder / f;
  for (auto& f : l.files)
    if (ImGui::Selectable(f.c_str())) {
      path = (g_folder / f).string();
      chosen = true;
      ImGui::CloseCurrentPopup();
    }
  ImGui::EndChild();
  if (ImGui::Button("Cancel")) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
  return chosen;
}
