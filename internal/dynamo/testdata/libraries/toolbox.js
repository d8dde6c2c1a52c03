const { DynamoDBClient, CreateTableCommand, DescribeTableCommand } = require('@aws-sdk/client-dynamodb')
const { DynamoDBDocumentClient } = require('@aws-sdk/lib-dynamodb')
const { Table, Entity, item, string, number, map, list, PutItemCommand } = require('dynamodb-toolbox')
const client = new DynamoDBClient({endpoint: process.env.ENDPOINT, region: 'us-east-1', credentials: {accessKeyId: 'x', secretAccessKey: 'x'}})
const name = process.env.TABLE
const table = new Table({name, documentClient: DynamoDBDocumentClient.from(client),
  partitionKey: {name: 'PK', type: 'string'}, sortKey: {name: 'SK', type: 'string'}})
const User = new Entity({name: 'User', table,
  schema: item({userId: string().key(), name: string()}),
  computeKey: ({userId}) => ({PK: `USER#${userId}`, SK: 'PROFILE'})})
const Order = new Entity({name: 'Order', table,
  schema: item({userId: string().key(), placed: string().key(), orderId: string().key(), total: number(),
    shipping: map({city: string(), zip: string()}).optional(), lines: list(map({sku: string(), qty: number()})).optional()}),
  computeKey: ({userId, placed, orderId}) => ({PK: `USER#${userId}`, SK: `ORDER#${placed}#${orderId}`})})
// An order's lines beside it, under its key (ORDER#{iso}#{id}#LINE#{n}):
// the level below an order is dense.
const OrderLine = new Entity({name: 'OrderLine', table,
  schema: item({userId: string().key(), placed: string().key(), orderId: string().key(), line: string().key(), sku: string(), qty: number()}),
  computeKey: ({userId, placed, orderId, line}) => ({PK: `USER#${userId}`, SK: `ORDER#${placed}#${orderId}#LINE#${line}`})})
// Versions as AWS's guide keeps them, bare (v0 the current copy, v1…vN),
// each revision's number written again as data (version).
const Part = new Entity({name: 'Part', table, timestamps: false,
  schema: item({partId: string().key(), version: number().key(), name: string(), qty: number()}),
  computeKey: ({partId, version}) => ({PK: `PART#${partId}`, SK: `v${version}`})})
;(async () => {
  await client.send(new CreateTableCommand({TableName: name, BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{AttributeName: 'PK', AttributeType: 'S'}, {AttributeName: 'SK', AttributeType: 'S'}],
    KeySchema: [{AttributeName: 'PK', KeyType: 'HASH'}, {AttributeName: 'SK', KeyType: 'RANGE'}]}))
  while ((await client.send(new DescribeTableCommand({TableName: name}))).Table.TableStatus !== 'ACTIVE') await new Promise(r => setTimeout(r, 50))
  await User.build(PutItemCommand).item({userId: '1', name: 'Ada'}).send()
  const start = Date.UTC(2020, 8, 1)
  for (let i = 0; i < 60; i++) {
    await Order.build(PutItemCommand).item({userId: '1', placed: new Date(start + i * 25 * 3600e3).toISOString(), orderId: 'o' + String(i).padStart(3, '0'), total: i,
      shipping: {city: 'city' + (i % 4), zip: String(10000 + i)}, lines: [{sku: 's' + (i % 7), qty: 1 + i % 3}]}).send()
  }
  // User 2: 40 orders, each with 1 to 5 lines under it.
  await User.build(PutItemCommand).item({userId: '2', name: 'Grace'}).send()
  for (let i = 0; i < 40; i++) {
    const placed = new Date(start + i * 7 * 3600e3).toISOString(), orderId = 'p' + String(i).padStart(3, '0')
    await Order.build(PutItemCommand).item({userId: '2', placed, orderId, total: 100 + i}).send()
    for (let l = 0; l <= i % 5; l++) await OrderLine.build(PutItemCommand).item({userId: '2', placed, orderId, line: String(l).padStart(2, '0'), sku: 's' + l, qty: l + 1}).send()
  }
  // Part 1's current copy is its v3; part 2's has drifted from its v2.
  for (const [partId, n, qty] of [['1', 3, 30], ['2', 2, 5]]) {
    for (let version = 1; version <= n; version++) await Part.build(PutItemCommand).item({partId, version, name: 'bolt', qty: 10 * version}).send()
    await Part.build(PutItemCommand).item({partId, version: 0, name: 'bolt', qty}).send()
  }
})().catch(e => { console.error(e); process.exit(1) })
