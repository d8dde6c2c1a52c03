// A shop's customer partition as dynamodb-toolbox writes it: one profile,
// a few addresses and the customer's orders (ORDER#{iso}#{id}), so that
// most of the partition's keys are not times (the orders are ten of the
// seventeen) though the orders are.
const { DynamoDBClient, CreateTableCommand, DescribeTableCommand } = require('@aws-sdk/client-dynamodb')
const { DynamoDBDocumentClient } = require('@aws-sdk/lib-dynamodb')
const { Table, Entity, item, string, number, PutItemCommand } = require('dynamodb-toolbox')
const client = new DynamoDBClient({endpoint: process.env.ENDPOINT, region: 'us-east-1', credentials: {accessKeyId: 'x', secretAccessKey: 'x'}})
const name = process.env.TABLE
const table = new Table({name, documentClient: DynamoDBDocumentClient.from(client),
  partitionKey: {name: 'PK', type: 'string'}, sortKey: {name: 'SK', type: 'string'}})
const Customer = new Entity({name: 'Customer', table,
  schema: item({customerId: string().key(), name: string()}),
  computeKey: ({customerId}) => ({PK: `CUST#${customerId}`, SK: 'PROFILE'})})
const Address = new Entity({name: 'Address', table,
  schema: item({customerId: string().key(), label: string().key(), city: string()}),
  computeKey: ({customerId, label}) => ({PK: `CUST#${customerId}`, SK: `ADDRESS#${label}`})})
const Order = new Entity({name: 'Order', table,
  schema: item({customerId: string().key(), placed: string().key(), orderId: string().key(), total: number()}),
  computeKey: ({customerId, placed, orderId}) => ({PK: `CUST#${customerId}`, SK: `ORDER#${placed}#${orderId}`})})
;(async () => {
  await client.send(new CreateTableCommand({TableName: name, BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{AttributeName: 'PK', AttributeType: 'S'}, {AttributeName: 'SK', AttributeType: 'S'}],
    KeySchema: [{AttributeName: 'PK', KeyType: 'HASH'}, {AttributeName: 'SK', KeyType: 'RANGE'}]}))
  while ((await client.send(new DescribeTableCommand({TableName: name}))).Table.TableStatus !== 'ACTIVE') await new Promise(r => setTimeout(r, 50))
  await Customer.build(PutItemCommand).item({customerId: 'c000', name: 'Ada'}).send()
  for (const label of ['billing', 'home', 'office', 'parents', 'summer', 'work']) {
    await Address.build(PutItemCommand).item({customerId: 'c000', label, city: 'city-' + label}).send()
  }
  // Ten orders, one every nine days from 2020-09-20: three in 2020-10.
  const start = Date.UTC(2020, 8, 20)
  for (let i = 0; i < 10; i++) {
    await Order.build(PutItemCommand).item({customerId: 'c000', placed: new Date(start + i * 9 * 86400e3).toISOString(), orderId: 'o' + String(i).padStart(3, '0'), total: i}).send()
  }
})().catch(e => { console.error(e); process.exit(1) })
