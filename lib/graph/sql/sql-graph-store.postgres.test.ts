import { describeGraphStoreContract } from "../contract/graph-store-contract";
import { makePostgresHarness } from "./testing/sql-harness";

describeGraphStoreContract("SQL store on the Postgres server", makePostgresHarness);
