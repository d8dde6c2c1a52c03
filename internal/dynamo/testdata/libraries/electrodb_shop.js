// ElectroDB's shop collection in one customer's partition: the customer
// ($account#customer_), its orders keyed by time
// ($account#order_1#placedat_{iso}#orderid_…) and their lines
// ($account#line_1#orderid_…#lineno_…, no time), more lines than a
// sample of the partition reads.
const { DynamoDBClient, CreateTableCommand, DescribeTableCommand } = require('@aws-sdk/client-dynamodb')
const { Entity } = require('electrodb')
const client = new DynamoDBClient({endpoint: process.env.ENDPOINT, region: 'us-east-1', credentials: {accessKeyId: 'x', secretAccessKey: 'x'}})
const table = process.env.TABLE
const service = 'shop'
const Customer = new Entity({model: {entity: 'customer', version: '1', service},
  attributes: {customerId: {type: 'string'}, name: {type: 'string'}},
  indexes: {byId: {collection: 'account', pk: {field: 'pk', composite: ['customerId']}, sk: {field: 'sk', composite: []}}}}, {table, client})
const Order = new Entity({model: {entity: 'order', version: '1', service},
  attributes: {customerId: {type: 'string'}, orderId: {type: 'string'}, placedAt: {type: 'string'}, total: {type: 'number'}},
  indexes: {byCustomer: {collection: 'account', pk: {field: 'pk', composite: ['customerId']}, sk: {field: 'sk', composite: ['placedAt', 'orderId']}}}}, {table, client})
const Line = new Entity({model: {entity: 'line', version: '1', service},
  attributes: {customerId: {type: 'string'}, orderId: {type: 'string'}, lineNo: {type: 'string'}, sku: {type: 'string'}},
  indexes: {byCustomer: {collection: 'account', pk: {field: 'pk', composite: ['customerId']}, sk: {field: 'sk', composite: ['orderId', 'lineNo']}}}}, {table, client})
;(async () => {
  await client.send(new CreateTableCommand({TableName: table, BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: ['pk', 'sk'].map(n => ({AttributeName: n, AttributeType: 'S'})),
    KeySchema: [{AttributeName: 'pk', KeyType: 'HASH'}, {AttributeName: 'sk', KeyType: 'RANGE'}]}))
  while ((await client.send(new DescribeTableCommand({TableName: table}))).Table.TableStatus !== 'ACTIVE') await new Promise(r => setTimeout(r, 50))
  const start = Date.UTC(2026, 5, 3, 8, 0, 0)
  await Customer.put({customerId: 'c5', name: 'Customer 5'}).go()
  for (let i = 0; i < 95; i++) {
    const orderId = 'o' + String(i).padStart(4, '0')
    await Order.put({customerId: 'c5', orderId, placedAt: new Date(start + (35 + i * 29) * 3600e3 * 3).toISOString(), total: 10 + i}).go()
    for (let l = 0; l < (i % 4); l++) await Line.put({customerId: 'c5', orderId, lineNo: String(l).padStart(2, '0'), sku: 'sku' + ((i + l) % 13)}).go()
  }
})().catch(e => { console.error(e); process.exit(1) })
