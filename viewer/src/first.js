// The viewer's first paint (firstpaint.js) as its own small script: index.html loads it beside
// the viewer's, and it runs as soon as it arrives, while the viewer's script still compiles.
import { startFirst } from "./firstpaint.js";

if (!window.lodexFirst) window.lodexFirst = startFirst();   // else the viewer ran first and did it
