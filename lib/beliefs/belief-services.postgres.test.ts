import { describeBeliefServices } from "./testing/belief-services-suite";

describeBeliefServices("SQL store on the Postgres server", "postgres");
