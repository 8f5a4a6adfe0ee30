import { describeGraphStoreContract } from "../testing/graph-store-contract";
import { makePgliteHarness } from "./testing/sql-harness";

describeGraphStoreContract("SQL store on embedded PGlite", makePgliteHarness);
