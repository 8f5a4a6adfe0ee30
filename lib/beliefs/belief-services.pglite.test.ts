import { describeBeliefServices } from "./testing/belief-services-suite";

describeBeliefServices("SQL store on embedded PGlite", "pglite");
