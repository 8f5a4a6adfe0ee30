import { describeGraphStoreContract } from "../testing/graph-store-contract";
import { makePostgresHarness } from "./testing/sql-harness";

describeGraphStoreContract("SQL store on the Postgres server", makePostgresHarness);
