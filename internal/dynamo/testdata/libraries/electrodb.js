const { DynamoDBClient, CreateTableCommand, DescribeTableCommand } = require('@aws-sdk/client-dynamodb')
const { Entity } = require('electrodb')
const client = new DynamoDBClient({endpoint: process.env.ENDPOINT, region: 'us-east-1', credentials: {accessKeyId: 'x', secretAccessKey: 'x'}})
const table = process.env.TABLE
const Employee = new Entity({
  model: {entity: 'employee', version: '1', service: 'taskapp'},
  attributes: {employee: {type: 'string'}, office: {type: 'string'}, name: {type: 'string'}, hired: {type: 'string'},
    address: {type: 'map', properties: {city: {type: 'string'}, zip: {type: 'string'}}}, skills: {type: 'list', items: {type: 'string'}}},
  indexes: {byId: {pk: {field: 'pk', composite: ['employee']}, sk: {field: 'sk', composite: []}},
            byOffice: {index: 'gsi1', pk: {field: 'gsi1pk', composite: ['office']}, sk: {field: 'gsi1sk', composite: ['hired', 'employee']}}},
}, {table, client})
const Office = new Entity({
  model: {entity: 'office', version: '1', service: 'taskapp'},
  attributes: {office: {type: 'string'}, city: {type: 'string'}},
  indexes: {byId: {pk: {field: 'pk', composite: ['office']}, sk: {field: 'sk', composite: []}}},
}, {table, client})
// A collection: a project and its tasks in one partition, under
// $board#… (ElectroDB's own sort key of a collection), a set among them.
const Project = new Entity({
  model: {entity: 'project', version: '1', service: 'taskapp'},
  attributes: {project: {type: 'string'}, title: {type: 'string'}},
  indexes: {byProject: {collection: 'board', pk: {field: 'pk', composite: ['project']}, sk: {field: 'sk', composite: []}}},
}, {table, client})
const Task = new Entity({
  model: {entity: 'task', version: '1', service: 'taskapp'},
  attributes: {project: {type: 'string'}, task: {type: 'string'}, status: {type: ['open', 'done']}, points: {type: 'number'}, tags: {type: 'set', items: 'string'}},
  indexes: {byProject: {collection: 'board', pk: {field: 'pk', composite: ['project']}, sk: {field: 'sk', composite: ['status', 'task']}}},
}, {table, client})
// Books by author in an index kept KEYS_ONLY (no __edb_e__ in it): an
// author's name holds a space (le guin, lower-cased).
const Book = new Entity({
  model: {entity: 'book', version: '1', service: 'library'},
  attributes: {bookId: {type: 'string'}, author: {type: 'string'}, published: {type: 'number'}, title: {type: 'string'}},
  indexes: {book: {pk: {field: 'pk', composite: ['bookId']}, sk: {field: 'sk', composite: []}},
            byAuthor: {index: 'gsi2', pk: {field: 'gsi2pk', composite: ['author']}, sk: {field: 'gsi2sk', composite: ['published', 'bookId']}}},
}, {table, client})
;(async () => {
  await client.send(new CreateTableCommand({TableName: table, BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk'].map(n => ({AttributeName: n, AttributeType: 'S'})),
    KeySchema: [{AttributeName: 'pk', KeyType: 'HASH'}, {AttributeName: 'sk', KeyType: 'RANGE'}],
    GlobalSecondaryIndexes: [{IndexName: 'gsi1', KeySchema: [{AttributeName: 'gsi1pk', KeyType: 'HASH'}, {AttributeName: 'gsi1sk', KeyType: 'RANGE'}], Projection: {ProjectionType: 'ALL'}},
      {IndexName: 'gsi2', KeySchema: [{AttributeName: 'gsi2pk', KeyType: 'HASH'}, {AttributeName: 'gsi2sk', KeyType: 'RANGE'}], Projection: {ProjectionType: 'KEYS_ONLY'}}]}))
  while ((await client.send(new DescribeTableCommand({TableName: table}))).Table.TableStatus !== 'ACTIVE') await new Promise(r => setTimeout(r, 50))
  for (let o = 0; o < 3; o++) await Office.put({office: 'o' + o, city: 'city' + o}).go()
  await Project.put({project: 'p1', title: 'Launch'}).go()
  for (let i = 0; i < 50; i++) await Task.put({project: 'p1', task: 't' + String(i).padStart(3, '0'), status: i % 3 ? 'open' : 'done', points: i % 8, tags: i % 2 ? ['ui', 'web'] : ['api']}).go()
  const start = Date.UTC(2020, 8, 1)
  for (let i = 0; i < 60; i++) await Employee.put({employee: 'e' + String(i).padStart(3, '0'), office: 'o' + (i % 3), name: 'n' + i, hired: new Date(start + i * 25 * 3600e3).toISOString(),
    address: {city: 'city' + (i % 4), zip: String(10000 + i)}, skills: i % 3 ? ['go', 'sql'] : ['ops']}).go()
  for (let i = 0; i < 40; i++) await Book.put({bookId: 'b' + String(i).padStart(3, '0'), author: ['Butler', 'Herbert', 'Le Guin', 'Tolkien', 'Banks'][i % 5], published: 1950 + i, title: 't' + i}).go()
})().catch(e => { console.error(e); process.exit(1) })
