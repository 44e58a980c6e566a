import { type ToolDefinition, type ToolName, toolPath, tools } from "#contract/tools";
import { type TableAccess, changeAccess, keyPatterns, readAccess } from "#deploy/access";
import { customerIndex, idDigitsIndexes, sellerIndexes } from "#store/table-design";

/**
 * The deployment manifest of the tools: for each tool of the contract (functions/contract/tools.ts), the function
 * that runs it, the routes that reach it and what it may do to DynamoDB. The CDK stack makes one function with
 * these routes and grants per tool; the local gateway serves the same routes with the same handlers.
 */

export interface ToolRoute {
  method: "GET" | "POST";
  path: string;
}

export interface ToolFunction {
  /** The handler module, relative to the repository root; it exports `handler`. */
  entry: string;
  routes: readonly ToolRoute[];
  access: TableAccess;
}

/** A tool of the contract with where it runs. */
export type DeployedTool = ToolDefinition & ToolFunction;

/** The tool's own route of contract §2, the one the controller calls. */
const post = (name: ToolName) => ({ method: "POST", path: toolPath(name) }) as const;

/** Every tool of the contract has one: a tool added there without a function here does not compile. */
export const toolFunctions = {
  search_orders: {
    entry: "functions/tools/search-orders.ts",
    routes: [post("search_orders")],
    // GetItem: a full id. Query: the indexes below, never the table. BatchGetItem: a seller's name, only if an order lacks it.
    access: readAccess({
      orders: ["dynamodb:GetItem", "dynamodb:BatchGetItem"],
      ordersIndexes: [
        customerIndex.indexName,
        "byEmail",
        ...idDigitsIndexes.map((index) => index.indexName),
        ...Object.values(sellerIndexes).map((index) => index.indexName),
      ],
    }),
  },
  get_order: {
    entry: "functions/tools/get-order.ts",
    routes: [post("get_order")],
    // Query: the order's partition (its state and content, functions/store/order-items.ts). GetItem: its state
    // alone, when the function holds its content at the version the state names. BatchGetItem: seller, supplement
    // and default policies, cached for 60 s.
    access: readAccess({ orders: ["dynamodb:Query", "dynamodb:GetItem", "dynamodb:BatchGetItem"] }),
  },
  cancel_order: {
    entry: "functions/tools/cancel-order.ts",
    routes: [post("cancel_order")],
    // GetItem: the order's state (its version and last change) and the actor's cap. ConditionCheckItem: the order,
    // when the proposal was made against another version than the one read.
    access: changeAccess({ orders: ["dynamodb:GetItem"], capsCustomers: true }),
  },
  add_delivery_note: {
    entry: "functions/tools/add-delivery-note.ts",
    routes: [post("add_delivery_note")],
    // GetItem: the order's state (its version and last change), the reuse diagnosis and support's cap. Customers'
    // notes are not capped (contract §7). ConditionCheckItem: the order, when the proposal was made against another
    // version than the one read.
    access: changeAccess({ orders: ["dynamodb:GetItem"], capsCustomers: false }),
  },
  start_return: {
    entry: "functions/tools/start-return.ts",
    routes: [post("start_return")],
    // Query: the order's partition (its state and content, functions/store/order-items.ts) and the pickup slots' own
    // partition, no index. GetItem: the order's state alone, when the function holds its content at the version the
    // state names; the reuse diagnosis and the actor's cap. BatchGetItem: seller and policies (cached 60 s).
    // UpdateItem: order and slot. ConditionCheckItem: the order, when the return is refused for want of a slot or
    // an unknown item, or made against another version than the one read.
    access: changeAccess({
      orders: ["dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:Query"],
      capsCustomers: true,
      linked: { "dynamodb:UpdateItem": [keyPatterns.pickupSlots] },
    }),
  },
  offer_replacement: {
    entry: "functions/tools/offer-replacement.ts",
    routes: [post("offer_replacement")],
    // Query: the order's partition (its state and content, with the item's SKU). GetItem: the order's state alone,
    // when the function holds its content at the version the state names; the reuse diagnosis and the actor's cap.
    // BatchGetItem: seller and policies (cached 60 s). UpdateItem: order and stock.
    // ConditionCheckItem: the seller is active; the order, when an unknown item is refused or the proposal was made
    // against another version than the one read.
    access: changeAccess({
      orders: ["dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:Query"],
      capsCustomers: true,
      linked: { "dynamodb:UpdateItem": [keyPatterns.stock], "dynamodb:ConditionCheckItem": [keyPatterns.seller] },
    }),
  },
  get_operation_status: {
    entry: "functions/tools/get-operation-status.ts",
    routes: [post("get_operation_status"), { method: "GET", path: "/v1/operations/{operationId}" }],
    // GetItem: the operation record, and Powertools' record of an operation still running.
    access: readAccess({ orders: ["dynamodb:GetItem"], idempotency: ["dynamodb:GetItem"] }),
  },
} as const satisfies { readonly [name in ToolName]: ToolFunction };

/** The contract's tools, in its order, each with its function, routes and access. */
export const deployedTools: readonly DeployedTool[] = tools.map((tool) => ({ ...tool, ...toolFunctions[tool.name] }));

export function deployedToolNamed(name: ToolName): DeployedTool {
  const tool = deployedTools.find((t) => t.name === name);
  if (!tool) throw new Error(`No tool ${name} in the deployment manifest`);
  return tool;
}
