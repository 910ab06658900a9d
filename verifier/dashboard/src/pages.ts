// Every page of the dashboard, in navigation order (the first is the home
// page). To add one, write its module (src/router.ts states the contract)
// and list it here.
import type { Page } from "./router";
import { page as requests } from "./requests";
import { page as review } from "./review";
import { page as templates } from "./templates";
import { page as profile } from "./profile";

export const pages: Page[] = [requests, review, templates, profile];
