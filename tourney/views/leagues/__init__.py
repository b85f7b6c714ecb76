"""The leagues' screens (issue 27): leagues and their seasons, a season's settings, its
tournaments and standings (printable, CSV), the recent changes with undo, and the public
standings by the season's link."""
