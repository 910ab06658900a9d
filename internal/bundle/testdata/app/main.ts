import { greetingFor } from "./lib/greet";
const veryLongVariableName: string = greetingFor("world");
document.title = veryLongVariableName;
