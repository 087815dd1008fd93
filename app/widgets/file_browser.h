// A file chooser drawn with ImGui for the labs' path parameters, so that no toolkit dialog
// is needed: the folders and the files of the wanted types of one folder at a time.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

struct FolderListing {
  std::vector<std::string> folders, files;  // sorted names; ".." first where there is a parent
  std::string error;                        // why the folder cannot be read, naming it
};
// `types`: extensions (".stl"), matched without regard to case; empty or {"*"}: every file.
FolderListing list_folder(const std::filesystem::path& folder, const std::vector<std::string>& types);

// Opens the chooser `id` at the folder of `current` (or the working folder).
void open_file_browser(const char* id, const std::string& current);
// Draws the chooser `id` while it is open; true, with `path` set, once a file is chosen.
bool file_browser(const char* id, const std::vector<std::string>& types, std::string& path);
