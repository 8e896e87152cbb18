// A configuration problem: its message is one line that names the variable and what is wrong, and
// never a secret's value. The class is defined in db/ (the bottom layer reads its own settings).
export { ConfigError } from "@/db/config-settings";
