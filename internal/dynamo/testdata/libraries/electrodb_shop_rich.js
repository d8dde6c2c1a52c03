// electrodb_shop.js grown as a shop's tables are: the customer
// ($account#customer_) with a tier, its orders keyed by time
// ($account#order_1#placedat_{iso}#orderid_…) carrying a status, a note
// and a sparse index (gsi1, orders only), their lines
// ($account#line_1#orderid_…#lineno_…, no time) and documents with
// revisions (VERSION#0001…, VERSION#0000 the current copy) in partitions
// of their own. The orders weigh about twice the plain shop's, so a
// page sized from the sample stops among them, before the lines.
const { DynamoDBClient, CreateTableCommand, DescribeTableCommand } = require('@aws-sdk/client-dynamodb')
const { Entity } = require('electrodb')
const client = new DynamoDBClient({endpoint: process.env.ENDPOINT, region: 'us-east-1', credentials: {accessKeyId: 'x', secretAccessKey: 'x'}})
const table = process.env.TABLE
const service = 'shop'
const Customer = new Entity({model: {entity: 'customer', version: '1', service},
  attributes: {customerId: {type: 'string'}, name: {type: 'string'}, tier: {type: 'string'}},
  indexes: {byId: {collection: 'account', pk: {field: 'pk', composite: ['customerId']}, sk: {field: 'sk', composite: []}}}}, {table, client})
const Order = new Entity({model: {entity: 'order', version: '1', service},
  attributes: {customerId: {type: 'string'}, orderId: {type: 'string'}, placedAt: {type: 'string'}, status: {type: ['open', 'shipped', 'cancelled']}, total: {type: 'number'}, note: {type: 'string'}},
  indexes: {byCustomer: {collection: 'account', pk: {field: 'pk', composite: ['customerId']}, sk: {field: 'sk', composite: ['placedAt', 'orderId']}},
    byStatus: {index: 'gsi1', pk: {field: 'gsi1pk', composite: ['status']}, sk: {field: 'gsi1sk', composite: ['placedAt', 'orderId']}}}}, {table, client})
const Line = new Entity({model: {entity: 'line', version: '1', service},
  attributes: {customerId: {type: 'string'}, orderId: {type: 'string'}, lineNo: {type: 'string'}, sku: {type: 'string'}, qty: {type: 'number'}},
  indexes: {byCustomer: {collection: 'account', pk: {field: 'pk', composite: ['customerId']}, sk: {field: 'sk', composite: ['orderId', 'lineNo']}}}}, {table, client})
const Doc = new Entity({model: {entity: 'doc', version: '2', service},
  attributes: {docId: {type: 'string'}, rev: {type: 'string'}, body: {type: 'string'}, editor: {type: 'string'}},
  indexes: {byDoc: {pk: {field: 'pk', composite: ['docId']}, sk: {field: 'sk', composite: ['rev']}}}}, {table, client})
;(async () => {
  await client.send(new CreateTableCommand({TableName: table, BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: ['pk', 'sk', 'gsi1pk', 'gsi1sk'].map(n => ({AttributeName: n, AttributeType: 'S'})),
    KeySchema: [{AttributeName: 'pk', KeyType: 'HASH'}, {AttributeName: 'sk', KeyType: 'RANGE'}],
    GlobalSecondaryIndexes: [{IndexName: 'gsi1', KeySchema: [{AttributeName: 'gsi1pk', KeyType: 'HASH'}, {AttributeName: 'gsi1sk', KeyType: 'RANGE'}], Projection: {ProjectionType: 'ALL'}}]}))
  while ((await client.send(new DescribeTableCommand({TableName: table}))).Table.TableStatus !== 'ACTIVE') await new Promise(r => setTimeout(r, 50))
  const start = Date.UTC(2026, 5, 3, 8, 0, 0)
  await Customer.put({customerId: 'c5', name: 'Customer 5', tier: 'gold'}).go()
  for (let i = 0; i < 95; i++) {
    const orderId = 'o' + String(i).padStart(4, '0')
    await Order.put({customerId: 'c5', orderId, placedAt: new Date(start + (35 + i * 29) * 3600e3 * 3).toISOString(), status: ['open', 'shipped', 'cancelled'][(i + 5) % 3], total: 15 + i * 3, note: i % 11 === 0 ? 'gift\nwrap' : 'n'}).go()
    for (let l = 0; l < (i % 4); l++) await Line.put({customerId: 'c5', orderId, lineNo: String(l).padStart(2, '0'), sku: 'sku' + ((i + l) % 13), qty: 1 + l}).go()
  }
  for (let d = 0; d < 4; d++) {
    const revs = 2 + d
    for (let r = 1; r <= revs; r++) await Doc.put({docId: 'd' + d, rev: 'VERSION#' + String(r).padStart(4, '0'), body: 'body ' + r, editor: 'u' + (r % 3)}).go()
    await Doc.put({docId: 'd' + d, rev: 'VERSION#0000', body: 'body ' + revs, editor: 'u' + (revs % 3)}).go()
  }
})().catch(e => { console.error(e); process.exit(1) })
